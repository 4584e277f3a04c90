"""A program written for the uritemplate package, as an API client uses it: building request
URLs from GitHub's hypermedia templates. test_uritemplate.py runs it as it is, then with its
import swapped for rfc6570.uritemplate, and compares what it prints."""

from uritemplate import URITemplate, expand, partial, variables

API = "https://api.github.com"
REPO = URITemplate(API + "/repos/{owner}/{repo}")
ISSUES = URITemplate(API + "/repos/{owner}/{repo}/issues{/number}{?state,labels,per_page}")
CONTENTS = URITemplate(API + "/repos/{owner}/{repo}/contents/{+path}{?ref}")
SEARCH = URITemplate(API + "/search/code{?q,sort,order}")

print(REPO.expand(owner="python-hyper", repo="uritemplate"))
print(ISSUES.expand({"owner": "python-hyper", "repo": "uritemplate"}, state="open", labels="bug,help wanted"))
print(ISSUES.expand(owner="o", repo="r", number=42))
print(ISSUES.expand(owner="o", repo="r", per_page=100))
print(CONTENTS.expand(owner="o", repo="r", path="docs/index file.rst", ref="main"))
print(SEARCH.expand(q="addClass in:file language:js repo:jquery/jquery", sort="indexed"))
print(expand(API + "/users{/user}{?since}", user="octocat", since=135))
print(expand(API + "{/endpoint*}", endpoint=["gists", "starred"]))
print(expand(API + "/search/issues{?q*}", q={"state": "open", "author": "octocat"}))
print(sorted(variables(ISSUES.uri)))
print(list(ISSUES.variable_names))
print(REPO, repr(REPO), REPO == URITemplate(REPO.uri), len({REPO, URITemplate(REPO.uri)}))

# Fill in the repository once, then each issue.
repo_issues = partial(ISSUES.uri, owner="python-hyper", repo="uritemplate")
print(repo_issues)
for number in (1, 2, 3):
    print(repo_issues.expand(number=number))
print(partial(API + "{/endpoint}").uri == API + "{/endpoint}")
