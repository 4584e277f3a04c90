//! The input-required flows of SEP-2322 (2026-07-28): tools that answer with an
//! `InputRequiredResult` until the client retries with the input they asked for, and keep their
//! progress in a sealed `requestState`. rmcp's tool macros hand them the client's
//! `InputResponses` and `RequestState`.

use rmcp::handler::server::tool::{InputResponses as Responses, RequestState};
use rmcp::model::{
    CallToolResponse, CreateMessageRequest, CreateMessageRequestParams, ElicitRequest,
    ElicitRequestParams, ElicitationSchema, ErrorData, InputRequest, InputRequests,
    InputRequiredResult, InputResponses, ListRootsRequest, RequestMetaObject, SamplingMessage,
};
use rmcp::{tool, tool_router};
use serde_json::{Value, json};

use crate::Conformance;
use crate::tools::text;

/// An `elicitation/create` input request for a form of `properties`.
pub fn elicitation(message: &str, properties: Value, required: &[&str]) -> InputRequest {
    InputRequest::Elicitation(ElicitRequest::new(form(message, properties, required)))
}

pub fn form(message: &str, properties: Value, required: &[&str]) -> ElicitRequestParams {
    let schema = json!({ "type": "object", "properties": properties, "required": required });
    ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: message.into(),
        requested_schema: serde_json::from_value::<ElicitationSchema>(schema)
            .unwrap_or_else(|e| panic!("a form schema of the conformance server: {e}")),
    }
}

fn sampling(prompt: &str) -> InputRequest {
    let params = CreateMessageRequestParams::new(vec![SamplingMessage::user_text(prompt)], 100);
    InputRequest::CreateMessage(CreateMessageRequest::new(params))
}

/// The response to input request `key`, if the client sent it as an object (anything else is
/// asked for again).
pub fn response_object<'a>(
    responses: Option<&'a InputResponses>,
    key: &str,
) -> Option<&'a serde_json::Map<String, Value>> {
    responses?.get(key)?.as_object()
}

pub fn asking(key: &str, request: InputRequest) -> InputRequiredResult {
    InputRequiredResult::from_input_requests(InputRequests::from([(key.to_owned(), request)]))
}

/// The name a client gives.
fn name_form(message: &str) -> InputRequest {
    elicitation(message, json!({ "name": { "type": "string" } }), &["name"])
}

#[tool_router(router = input_required_tools, vis = "pub(crate)")]
impl Conformance {
    #[tool(
        name = "test_input_required_result_elicitation",
        description = "Asks for a name first (SEP-2322)"
    )]
    async fn asks_for_a_name(&self, Responses(responses): Responses) -> CallToolResponse {
        let name = response_object(responses.as_ref(), "user_name")
            .and_then(|r| r.get("content")?.get("name")?.as_str().map(str::to_owned));
        match name {
            Some(name) => text(format!("Hello, {name}!")).into(),
            None => asking("user_name", name_form("What is your name?")).into(),
        }
    }

    #[tool(
        name = "test_input_required_result_sampling",
        description = "Asks the client's LLM first (SEP-2322)"
    )]
    async fn asks_the_llm(&self, Responses(responses): Responses) -> CallToolResponse {
        let answer = response_object(responses.as_ref(), "capital_question")
            .and_then(|r| r.get("content")?.get("text")?.as_str().map(str::to_owned));
        match answer {
            Some(answer) => text(format!("Sampling response: {answer}")).into(),
            None => asking(
                "capital_question",
                sampling("What is the capital of France?"),
            )
            .into(),
        }
    }

    #[tool(
        name = "test_input_required_result_list_roots",
        description = "Asks for the client's roots first (SEP-2322)"
    )]
    async fn asks_for_roots(&self, Responses(responses): Responses) -> CallToolResponse {
        let roots = response_object(responses.as_ref(), "client_roots").map(|r| {
            let roots = r
                .get("roots")
                .and_then(Value::as_array)
                .map(Vec::as_slice)
                .unwrap_or_default();
            let uris: Vec<&str> = roots
                .iter()
                .filter_map(|r| r.get("uri")?.as_str())
                .collect();
            uris.join(", ")
        });
        match roots {
            Some(roots) => text(format!("Client roots: [{roots}]")).into(),
            None => asking(
                "client_roots",
                InputRequest::ListRoots(ListRootsRequest::default()),
            )
            .into(),
        }
    }

    #[tool(
        name = "test_input_required_result_request_state",
        description = "Keeps its progress in requestState (SEP-2322)"
    )]
    async fn keeps_state(
        &self,
        RequestState(state): RequestState,
    ) -> Result<CallToolResponse, ErrorData> {
        self.confirm(state)
    }

    #[tool(
        name = "test_input_required_result_tampered_state",
        description = "Refuses a requestState it did not seal (SEP-2322)"
    )]
    async fn refuses_tampered_state(
        &self,
        RequestState(state): RequestState,
    ) -> Result<CallToolResponse, ErrorData> {
        self.confirm(state)
    }

    #[tool(
        name = "test_input_required_result_multiple_inputs",
        description = "Asks for three inputs at once (SEP-2322)"
    )]
    async fn asks_for_three(
        &self,
        Responses(responses): Responses,
        RequestState(state): RequestState,
    ) -> Result<CallToolResponse, ErrorData> {
        if let Some(state) = &state {
            self.open(state)?;
        }
        let all = ["user_name", "greeting", "client_roots"]
            .iter()
            .all(|k| response_object(responses.as_ref(), k).is_some());
        if all && state.is_some() {
            return Ok(text("All inputs received").into());
        }
        let requests = InputRequests::from([
            ("user_name".to_owned(), name_form("What is your name?")),
            ("greeting".to_owned(), sampling("Generate a greeting")),
            (
                "client_roots".to_owned(),
                InputRequest::ListRoots(ListRootsRequest::default()),
            ),
        ]);
        Ok(InputRequiredResult::new(
            Some(requests),
            Some(self.seal(json!({ "stage": "gather" }))?),
        )
        .into())
    }

    #[tool(
        name = "test_input_required_result_multi_round",
        description = "Asks twice, one round after the other (SEP-2322)"
    )]
    async fn asks_twice(
        &self,
        RequestState(state): RequestState,
    ) -> Result<CallToolResponse, ErrorData> {
        let round = match &state {
            None => 0,
            Some(state) => self
                .open(state)?
                .get("round")
                .and_then(Value::as_i64)
                .unwrap_or(0),
        };
        let (key, request) = match round {
            0 => ("step1", name_form("Step 1: What is your name?")),
            1 => (
                "step2",
                elicitation(
                    "Step 2: What is your favorite color?",
                    json!({ "color": { "type": "string" } }),
                    &["color"],
                ),
            ),
            _ => return Ok(text("Multi-round flow complete").into()),
        };
        let sealed = self.seal(json!({ "round": round + 1 }))?;
        let requests = InputRequests::from([(key.to_owned(), request)]);
        Ok(InputRequiredResult::new(Some(requests), Some(sealed)).into())
    }

    #[tool(
        name = "test_input_required_result_capabilities",
        description = "Asks only for what the client can answer (SEP-2322)"
    )]
    async fn asks_what_the_client_can_answer(
        &self,
        Responses(responses): Responses,
        meta: RequestMetaObject,
    ) -> CallToolResponse {
        if responses.is_some() {
            return text("Capability-aware flow complete").into();
        }
        let capabilities = meta.client_capabilities().unwrap_or_default();
        let mut requests = InputRequests::new();
        if capabilities.elicitation.is_some() {
            requests.insert("user_name".into(), name_form("What is your name?"));
        }
        if capabilities.sampling.is_some() {
            requests.insert("greeting".into(), sampling("Generate a greeting"));
        }
        if capabilities.roots.is_some() {
            requests.insert(
                "client_roots".into(),
                InputRequest::ListRoots(ListRootsRequest::default()),
            );
        }
        if requests.is_empty() {
            return text("Client declared no capability to answer with").into();
        }
        InputRequiredResult::from_input_requests(requests).into()
    }
}

impl Conformance {
    /// The request-state flow: ask for confirmation with a sealed state, then check the state.
    fn confirm(&self, state: Option<String>) -> Result<CallToolResponse, ErrorData> {
        match state {
            None => {
                let ask = elicitation(
                    "Please confirm",
                    json!({ "ok": { "type": "boolean" } }),
                    &["ok"],
                );
                let requests = InputRequests::from([("confirm".to_owned(), ask)]);
                let sealed = self.seal(json!({ "stage": "confirm" }))?;
                Ok(InputRequiredResult::new(Some(requests), Some(sealed)).into())
            }
            Some(state) => {
                self.open(&state)?;
                Ok(text("Confirmed: state-ok").into())
            }
        }
    }

    fn seal(&self, state: Value) -> Result<String, ErrorData> {
        self.request_state
            .seal_json(&state)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))
    }

    /// A state this server sealed; anything else is refused.
    fn open(&self, state: &str) -> Result<Value, ErrorData> {
        self.request_state.open_json(state).map_err(|_| {
            ErrorData::invalid_params("requestState failed integrity verification", None)
        })
    }
}
