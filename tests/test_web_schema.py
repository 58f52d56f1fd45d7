"""Property-based requests generated from the OpenAPI schema (schemathesis): whatever a client
sends that the schema allows (and much that it does not), the answer is never a server error."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings

from pokerlab.web.app import Settings, create_app

APP = create_app(Settings(workers=1, max_seconds=1.0))
schema = schemathesis.openapi.from_dict(APP.openapi())


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    # one pool of workers for every generated request; the app answers loopback names only
    with TestClient(APP, base_url="http://127.0.0.1") as c:
        yield c


@schema.parametrize()
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_no_request_gets_a_server_error(case: schemathesis.Case, client: TestClient) -> None:
    kwargs = case.as_transport_kwargs(base_url="http://127.0.0.1")
    kwargs.pop("cookies", None)
    response = client.request(**kwargs)
    assert response.status_code < 500, (kwargs, response.status_code, response.text)
    if response.status_code >= 400:
        error = response.json()["error"]
        assert error["message"] and error["type"]
