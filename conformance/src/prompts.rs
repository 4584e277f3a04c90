//! The prompts the suite gets, through rmcp's `#[prompt_router(vis = "pub(crate)")]`, and the one prompt that asks
//! for input first (SEP-2322), which rmcp's prompt macros cannot see the input responses of.

use rmcp::handler::server::prompt::PromptContext;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    ErrorData, GetPromptRequestParams, GetPromptResponse, GetPromptResult, InputRequests,
    InputRequiredResult, Prompt, PromptArgument, PromptMessage, Role,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, prompt, prompt_router, schemars};
use serde::Deserialize;

use crate::Conformance;
use crate::input_required::{elicitation, response_object};
use crate::resources::PNG;

/// The prompt that asks for its context first.
const ASKS_FIRST: &str = "test_input_required_result_prompt";

#[derive(Deserialize, schemars::JsonSchema)]
pub struct TwoArguments {
    /// First test argument.
    arg1: String,
    /// Second test argument.
    arg2: String,
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct ResourceArgument {
    /// URI of the resource to embed.
    #[serde(rename = "resourceUri")]
    #[schemars(rename = "resourceUri")]
    resource_uri: String,
}

#[prompt_router(vis = "pub(crate)")]
impl Conformance {
    #[prompt(
        name = "test_simple_prompt",
        description = "A simple prompt without arguments"
    )]
    async fn simple_prompt(&self) -> Vec<PromptMessage> {
        vec![PromptMessage::new_text(
            Role::User,
            "This is a simple prompt for testing.",
        )]
    }

    #[prompt(
        name = "test_prompt_with_arguments",
        description = "A prompt with two arguments"
    )]
    async fn prompt_with_arguments(
        &self,
        Parameters(TwoArguments { arg1, arg2 }): Parameters<TwoArguments>,
    ) -> Vec<PromptMessage> {
        let text = format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'");
        vec![PromptMessage::new_text(Role::User, text)]
    }

    #[prompt(
        name = "test_prompt_with_embedded_resource",
        description = "A prompt that embeds a resource"
    )]
    async fn prompt_with_embedded_resource(
        &self,
        Parameters(ResourceArgument { resource_uri }): Parameters<ResourceArgument>,
    ) -> Vec<PromptMessage> {
        let text = Some("Embedded resource content for testing.".to_owned());
        let mime = Some("text/plain".to_owned());
        vec![
            PromptMessage::new_resource(Role::User, resource_uri, mime, text, None, None, None),
            PromptMessage::new_text(Role::User, "Please process the embedded resource above."),
        ]
    }

    #[prompt(
        name = "test_prompt_with_image",
        description = "A prompt with an image"
    )]
    async fn prompt_with_image(&self) -> Vec<PromptMessage> {
        vec![
            PromptMessage::new_image(Role::User, PNG, "image/png", None, None),
            PromptMessage::new_text(Role::User, "Please analyze the image above."),
        ]
    }
}

impl Conformance {
    /// Every prompt: the router's, and the one that asks first.
    pub fn prompts(&self) -> Vec<Prompt> {
        let mut prompts = self.prompt_router.list_all();
        let description = "A prompt that asks for its context first (SEP-2322)";
        prompts.push(Prompt::new(
            ASKS_FIRST,
            Some(description),
            None::<Vec<PromptArgument>>,
        ));
        prompts
    }

    /// `prompts/get`: the prompt that asks first here, the others through the router.
    pub async fn prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name != ASKS_FIRST {
            let context = PromptContext::new(self, request.name, request.arguments, context);
            return self.prompt_router.get_prompt(context).await;
        }
        let answer =
            response_object(request.input_responses.as_ref(), "user_context").and_then(|r| {
                r.get("content")?
                    .get("context")?
                    .as_str()
                    .map(str::to_owned)
            });
        match answer {
            Some(context) => {
                let text = format!("Prompt with context: {context}");
                let messages = vec![PromptMessage::new_text(Role::User, text)];
                Ok(GetPromptResult::new(messages).into())
            }
            None => {
                let mut requests = InputRequests::new();
                let schema = serde_json::json!({ "context": { "type": "string" } });
                let ask = elicitation("What context should the prompt use?", schema, &["context"]);
                requests.insert("user_context".into(), ask);
                Ok(InputRequiredResult::from_input_requests(requests).into())
            }
        }
    }
}
