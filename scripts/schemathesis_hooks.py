"""schemathesis hooks for scripts/schemathesis.sh: values for the GraphQL API's JSONObject scalar, and the check
that no GraphQL answer reports a failure of the server."""

import graphql
import schemathesis
from hypothesis import strategies as st
from schemathesis.graphql import nodes

# Field names the service knows (content, projects), so generated objects are sometimes accepted, plus any others.
KNOWN_FIELDS = ["title", "body", "summary", "source_id", "source_url", "author", "published", "tags", "language", "name", "type"]

scalar_values = st.one_of(
    st.text(max_size=40).map(nodes.String),
    st.integers(min_value=-(2**31), max_value=2**31 - 1).map(nodes.Int),
    st.booleans().map(nodes.Boolean),
    st.just(nodes.Null),
)
field_names = st.one_of(st.sampled_from(KNOWN_FIELDS), st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,15}", fullmatch=True))
json_objects = st.dictionaries(field_names, scalar_values, max_size=6).map(
    lambda fields: nodes.Object([graphql.ObjectFieldNode(name=graphql.NameNode(value=name), value=value) for name, value in fields.items()])
)
schemathesis.graphql.scalar("JSONObject", json_objects)

# What the service's GraphQL errors carry (src/graphql/server.ts): the REST meaning of a refusal, as
# `extensions.code` (the error kind: INVALID, NOTFOUND, ...) and `extensions.status` (the HTTP status).
SERVER_FAILURE_CODES = {"INTERNAL_SERVER_ERROR", "INSUFFICIENT_STORAGE"}


@schemathesis.check
def graphql_no_server_failure(ctx, response, case):
    """No 5xx, and every GraphQL error is a labelled refusal of the request (status below 500), never a failure."""
    if response.status_code >= 500:
        raise AssertionError(f"Server error: HTTP {response.status_code}")
    payload = response.json()
    for error in payload.get("errors") or []:
        extensions = error.get("extensions") or {}
        code, status = extensions.get("code"), extensions.get("status")
        if code in SERVER_FAILURE_CODES or not isinstance(code, str):
            raise AssertionError(f"GraphQL server failure: {error}")
        if isinstance(status, int) and status >= 500:
            raise AssertionError(f"GraphQL server failure (status {status}): {error}")
