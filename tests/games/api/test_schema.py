"""The OpenAPI document: it validates, describes every field and error, and the API
keeps its promises (schemathesis: no 5xx for any input, every answer as documented)."""

from __future__ import annotations

import pytest
import schemathesis
import yaml
from django.core.management import call_command
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.specs.openapi import checks as openapi_checks

from tests.factories import UserFactory
from tests.games.api.conftest import create, token_client
from tests.games.factories import GameFactory

EXAMPLES = 50  # per operation and kind of data: about 850 requests, under a minute
OPERATIONS = {
    ("/api/v1/auth/token/", "post"),
    ("/api/v1/auth/token/", "delete"),
    ("/api/v1/games/", "get"),
    ("/api/v1/games/", "post"),
    ("/api/v1/games/{game_id}/", "get"),
    ("/api/v1/games/{game_id}/join/", "post"),
    ("/api/v1/games/{game_id}/leave/", "post"),
    ("/api/v1/games/{game_id}/resign/", "post"),
    ("/api/v1/games/{game_id}/rematch/", "post"),
    ("/api/v1/games/{game_id}/seats/{position}/", "put"),
    ("/api/v1/games/{game_id}/seats/{position}/hand-over/", "post"),
    ("/api/v1/games/{game_id}/moves/", "get"),
    ("/api/v1/games/{game_id}/moves/", "post"),
    ("/api/v1/games/{game_id}/chat/", "get"),
    ("/api/v1/games/{game_id}/chat/", "post"),
    ("/api/v1/games/{game_id}/chat/{message_id}/report/", "post"),
    ("/api/v1/games/{game_id}/orders/", "get"),
    ("/api/v1/games/{game_id}/orders/", "put"),
    ("/api/v1/games/{game_id}/orders/", "delete"),
    ("/api/v1/users/{username}/", "get"),
    ("/api/v1/leaderboard/", "get"),
}


@pytest.fixture(scope="module")
def document(django_db_blocker) -> dict:
    with django_db_blocker.unblock():
        from django.test import Client

        response = Client().get("/api/schema/")
    assert response.status_code == 200
    return yaml.safe_load(response.content)


def _conforms(document: dict, component: str, instance) -> None:
    """``instance`` is valid for ``component`` under the document's own OpenAPI version,
    read strictly (a null only where the schema allows one)."""
    from openapi_schema_validator import OAS30Validator, OAS31Validator

    validator = OAS30Validator if document["openapi"].startswith("3.0") else OAS31Validator
    schema = {"$ref": f"#/components/schemas/{component}", "components": document["components"]}
    validator(schema).validate(instance)


def test_the_session_scheme_says_there_is_nothing_to_enter(document):
    """The docs page's "Authorize" box showed "Authorized" for a session cookie typed in,
    which a page cannot send: the scheme says the browser sends it by itself."""
    schemes = document["components"]["securitySchemes"]
    assert set(schemes) == {"tokenAuth", "cookieAuth"}
    cookie = schemes["cookieAuth"]
    assert (cookie["in"], cookie["name"]) == ("cookie", "sessionid")
    assert "Nothing to enter here" in cookie["description"]


def test_lists_refused_with_a_value_twice_say_unique_items(document, alice, dora):
    """The schema says ``uniqueItems`` exactly where the server refuses a repeated value
    (schemathesis found those answers 400 for bodies the schema allowed)."""
    schemas = document["components"]["schemas"]
    unique = {
        (name, field)
        for name, schema in schemas.items()
        for field, spec in (schema.get("properties") or {}).items()
        if spec.get("uniqueItems")
    }
    assert unique == {
        ("GameCreateInputRequest", "advanced"),
        ("MoveInputRequest", "cards"),
        ("OrderInputRequest", "cards"),
    }
    client = token_client(alice)
    twice = client.post(
        "/api/v1/games/",
        {"players": 3, "seats": [{"ai": "easy"}] * 2, "advanced": ["yacht", "yacht"]},
        format="json",
    )
    assert twice.status_code == 400
    table = GameFactory(creator=dora, seats=[{"ai": "easy"}] * 2, first_player=0)
    client = token_client(dora)  # to act first at her own (scenario) table
    game = f"/api/v1/games/{table.pk}/"
    view = client.get(game).json()
    move = {"type": "bid", "cards": [1000, 1000], "version": view["version"]}
    answer = client.post(f"{game}moves/", move, format="json")
    # Outside the schema (uniqueItems): "invalid", as any malformed body, not a rule.
    assert (answer.status_code, answer.json()["code"]) == (400, "invalid"), answer.json()
    assert answer.json()["errors"] == {"cards": ["You listed the 1,000 card twice."]}
    order = {"for_card": view["card"], "order": {"type": "bid", "max": 9000, "cards": [1000, 1000]}}
    answer = client.put(f"{game}orders/", order, format="json")
    assert (answer.status_code, answer.json()["code"]) == (400, "invalid"), answer.json()
    assert answer.json()["errors"] == {"order.cards": ["You listed the 1,000 card twice."]}


def test_answers_with_nulls_conform_for_strict_clients(document, alice, bob):
    """Answers whose nested objects are null (a table still waiting: no legal actions,
    no result; no standing order) conform to the schema read strictly, as a generated
    client reads it."""
    client = token_client(alice)
    waiting = create(client, players=3, seats=[{"user": "bob"}, {"open": True}])
    assert waiting["legal_actions"] is None and waiting["result"] is None
    _conforms(document, "GameView", waiting)
    running = create(client, players=3, seats=[{"ai": "easy"}, {"ai": "easy"}])
    _conforms(document, "GameView", running)
    orders = client.get(f"/api/v1/games/{running['id']}/orders/").json()
    assert orders["order"] is None
    _conforms(document, "Orders", orders)


def test_schema_validates_without_warnings(tmp_path):
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "s.yml"))


def test_the_served_schema_validates_for_strict_clients(document):
    from openapi_spec_validator import validate

    validate(document)  # raises on any error, for the document's own OpenAPI version
    moves = document["paths"]["/api/v1/games/{game_id}/moves/"]["post"]["responses"]
    assert {"413", "415"} <= set(moves)
    assert "409" in document["paths"]["/api/v1/games/"]["post"]["responses"]  # the limits
    error = document["components"]["schemas"]["Error"]["properties"]
    assert error["version"]["type"] == "integer"


def test_every_operation_is_documented_with_its_errors(document):
    found = {(path, method) for path, ops in document["paths"].items() for method in ops}
    assert found == OPERATIONS
    for path, method in OPERATIONS:
        operation = document["paths"][path][method]
        responses = operation["responses"]
        assert operation.get("description") and operation.get("summary"), (path, method)
        assert {"406", "429", "503"} <= set(responses), (path, method)
        for code, answer in responses.items():
            if code.startswith(("4", "5")):
                ref = answer["content"]["application/json"]["schema"]["$ref"]
                assert ref == "#/components/schemas/Error", (path, method, code)
        if path != "/api/v1/auth/token/" or method != "post":
            assert "401" in responses and operation["security"], (path, method)
        if method in ("post", "put", "delete"):  # a session without its CSRF token: 403
            assert "403" in responses, (path, method)
        # The headers a client reads: when to try again, where a new table is.
        for code in ("429", "503"):
            assert "Retry-After" in responses[code]["headers"], (path, method, code)
        # Where the client stands against the limits: on every answer they counted.
        for code, answer in responses.items():
            assert answer["description"], (path, method, code)  # successes had ""
            counted = code not in ("401", "406", "503")
            assert ("RateLimit-Remaining" in answer.get("headers", {})) == counted, (path, code)
        # Every read is conditional: a tagged 200, If-None-Match, and a 304.
        read = method == "get"
        assert ("304" in responses) == read, (path, method)
        names = {parameter["name"] for parameter in operation.get("parameters", ())}
        assert ("If-None-Match" in names) == read, (path, method)
        if read:
            assert "ETag" in responses["200"]["headers"] and "ETag" in responses["304"]["headers"]
    games = document["paths"]["/api/v1/games/"]["post"]["responses"]
    rematch = document["paths"]["/api/v1/games/{game_id}/rematch/"]["post"]["responses"]
    for answer in (games["201"], rematch["201"], rematch["200"]):
        assert answer["headers"]["Location"]["required"]
    moves = document["paths"]["/api/v1/games/{game_id}/moves/"]["post"]
    assert {"400", "401", "403", "404", "409", "429"} <= set(moves["responses"])
    examples = moves["requestBody"]["content"]["application/json"]["examples"]
    kinds = {example["value"]["type"] for example in examples.values()}
    assert kinds == {"bid", "pass", "discard", "sealed_bid"}


def test_every_field_is_described(document):
    """Every property of every component has a description (or is a reference to a
    described component)."""
    missing = []
    for name, component in document["components"]["schemas"].items():
        for prop, schema in component.get("properties", {}).items():
            described = (
                "description" in schema
                or "$ref" in schema
                or ("allOf" in schema and "description" in schema)
            )
            if not described:
                missing.append(f"{name}.{prop}")
    assert missing == []


def test_numbers_in_paths_are_never_negative(document, client):
    """The paths take digits only: a client generating ids from the schema must not
    expect ``/games/-1/`` to be a game it could be told of (it is no endpoint)."""
    numbers = [
        (path, parameter["name"], parameter["schema"])
        for path, operations in document["paths"].items()
        for operation in operations.values()
        if isinstance(operation, dict)
        for parameter in operation.get("parameters", ())
        if parameter["in"] == "path" and parameter["schema"].get("type") == "integer"
    ]
    assert {name for _path, name, _schema in numbers} >= {"game_id", "position"}
    assert all(schema.get("minimum") == 0 for _path, _name, schema in numbers), numbers
    assert client.get("/api/v1/games/-1/").status_code == 404


# --------------------------------------------------------------------------- schemathesis


@pytest.fixture
def api_schema(fuzz_user):
    from django.core import signals
    from django.db import close_old_connections

    from highsociety_site.wsgi import application

    # As Django's test client does: the end of a request must not close the test's
    # database connection (its transaction holds the test data).  After fuzz_user's
    # set-up, whose test client connects these handlers again after each request.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    schema = schemathesis.openapi.from_wsgi("/api/schema/", application)
    yield schema
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


NOTHING_TO_NEGATE = {("/api/v1/auth/token/", "delete"), ("/api/v1/users/{username}/", "get")}
CHECKS = [
    openapi_checks.status_code_conformance,
    openapi_checks.content_type_conformance,
    openapi_checks.response_headers_conformance,
    openapi_checks.response_schema_conformance,
    openapi_checks.negative_data_rejection,
]


@pytest.fixture
def fuzz_user(db):
    """A player with a token, a running game (seat 0) and an open table."""
    user = UserFactory(username="fuzzer")
    UserFactory(username="bob")
    client = token_client(user)
    running = create(client, players=3, seats=[{"ai": "random"}, {"ai": "random"}])
    waiting = create(client, players=3, seats=[{"open": True}, {"user": "bob"}])
    return client.token, [running["id"], waiting["id"]]


# schemathesis's own pytest plugin does not run on pytest 9 yet: its Python API does the
# same, one test per operation and kind of data (valid for the schema, or not).
@pytest.mark.parametrize(
    "path, method, mode",
    [
        (path, method, mode)
        for path, method in sorted(OPERATIONS)
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
        # No input to break: nothing schema-violating can be generated.
        if mode == GenerationMode.POSITIVE or (path, method) not in NOTHING_TO_NEGATE
    ],
    ids=lambda value: str(value),
)
def test_api_keeps_its_schema(fuzz_user, api_schema, path, method, mode):
    token, game_ids = fuzz_user
    operation = api_schema[path][method.upper()]

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def check(case):
        # Half the generated game ids point at real games, so the deeper paths run too.
        game_id = (case.path_parameters or {}).get("game_id")
        # (A negative id is left alone: it breaks the schema, and must stay refused.)
        if (
            isinstance(game_id, int)
            and not isinstance(game_id, bool)
            and game_id >= 0
            and game_id % 2 == 0
        ):
            case.path_parameters["game_id"] = game_ids[game_id // 2 % 2]
        headers = {"Authorization": f"Token {token}"}
        if (path, method) == ("/api/v1/auth/token/", "delete"):
            headers = {}  # revoking the token would lock out the cases that follow
        response = case.call(headers=headers)
        assert response.status_code < 500, (response.status_code, response.text[:500])
        case.validate_response(response, checks=CHECKS, headers=headers)

    check()


def test_schema_and_interactive_docs_are_served(client, db):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200 and b"openapi: 3" in schema.content
    docs = client.get("/api/docs/")
    assert docs.status_code == 200 and b"swagger" in docs.content.lower()
    assert client.get("/api/schema/?format=json").json()["info"]["title"]


def test_the_error_codes_are_one_closed_list(document):
    """The schema lists every code an error may carry, as docs/api.md's table does (it
    was a plain string: a client could not know which to switch on); a code outside it
    falls back to its status's own."""
    import re
    from pathlib import Path

    from games.api.errors import ERROR_CODES, known_code

    code = document["components"]["schemas"]["Error"]["properties"]["code"]
    assert code["allOf"] == [{"$ref": "#/components/schemas/ErrorCodeEnum"}]
    assert set(document["components"]["schemas"]["ErrorCodeEnum"]["enum"]) == set(ERROR_CODES)
    table = Path(__file__).resolve().parents[3] / "docs" / "api.md"
    rows = [line for line in table.read_text().splitlines() if re.match(r"\| [45]\d\d \|", line)]
    documented = {found for row in rows for found in re.findall(r"`([a-z_]+)`", row.split("|")[2])}
    assert documented == set(ERROR_CODES)
    assert known_code("csrf_failed", 403) == "permission_denied"
    assert known_code("weird", 500) == "server_error" and known_code("invalid", 400) == "invalid"


def test_a_seats_bot_level_is_the_bots_enum_or_blank(document):
    """``ai_level`` was a free string: a generated client got no enum for it."""
    from games.models import AI_LEVELS

    field = document["components"]["schemas"]["TableSeat"]["properties"]["ai_level"]
    refs = {part["$ref"].rsplit("/", 1)[1] for part in field["oneOf"]}
    assert refs == {"AiEnum", "BlankEnum"}
    schemas = document["components"]["schemas"]
    assert schemas["AiEnum"]["enum"] == list(AI_LEVELS)
    assert schemas["BlankEnum"]["enum"] == [""]
    # As the head-to-head record's bot level: the enum, or null for a person.
    field = schemas["HeadToHead"]["properties"]["bot_level"]
    assert {part["$ref"].rsplit("/", 1)[1] for part in field["oneOf"]} == {"AiEnum", "NullEnum"}


@pytest.mark.django_db
def test_the_docs_give_each_operation_the_statuses_the_schema_does(document):
    """docs/api.md's table of status codes per endpoint and the schema say the same (the
    token's DELETE answered a session without its CSRF token 403, listed in neither)."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[3] / "docs" / "api.md").read_text()
    documented = {}
    for method, path, ok, errors in re.findall(
        r"^\| `(GET|POST|PUT|DELETE) (/api/v1/[^`]*)` \| ([\d, ]+) \| ([^|]+) \|$", text, re.M
    ):
        codes = {int(c) for c in re.findall(r"\b[1-5]\d\d\b", f"{ok} {errors}")}
        codes |= {406, 503} | ({304} if method == "GET" else set())  # said above the table
        documented[(re.sub(r"\{id\}", "{game_id}", path), method.lower())] = codes
    assert set(documented) == OPERATIONS, set(documented) ^ OPERATIONS
    differ = {}
    for (path, method), codes in documented.items():
        schema = {int(c) for c in document["paths"][path][method]["responses"]}
        if codes != schema:
            differ[(method, path)] = (sorted(codes - schema), sorted(schema - codes))
    assert not differ, differ
    # The token's DELETE with a session and no CSRF token: 403, as both now say.
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(UserFactory())
    assert client.delete("/api/v1/auth/token/").status_code == 403
    assert 403 in documented[("/api/v1/auth/token/", "delete")]


def test_request_bodies_say_they_take_no_other_field(document):
    """The server refuses unknown fields (400) and a seat with two of user, ai and open:
    a schema that allowed them let generated clients build bodies that failed."""
    schemas = document["components"]["schemas"]
    requests = {name: schema for name, schema in schemas.items() if name.endswith("Request")}
    assert {"MoveInputRequest", "SeatSpecRequest", "OrdersInputRequest"} <= set(requests)
    assert all(schema["additionalProperties"] is False for schema in requests.values())
    seat = requests["SeatSpecRequest"]
    assert (seat["minProperties"], seat["maxProperties"]) == (1, 1)
