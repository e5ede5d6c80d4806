"""Hypothesis strategies from the JSON Schemas in an OpenAPI document.

Covers the part of JSON Schema FastAPI writes for our models: $ref, anyOf/oneOf/allOf,
enum/const, objects (properties, required, additionalProperties), arrays, strings, integers,
numbers, booleans and null; a schema without a type allows any JSON value.

>>> from hypothesis import find
>>> schema = {"type": "object", "properties": {"move": {"type": "integer", "minimum": 0}},
...           "required": ["move"], "additionalProperties": False}
>>> find(from_schema(schema, {}), lambda body: body["move"] > 3)
{'move': 4}
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

REF_PREFIX = "#/components/schemas/"

ANY_JSON: st.SearchStrategy[Any] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=8,
)


def from_schema(schema: dict[str, Any], definitions: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values that match `schema`; `definitions` are the document's components/schemas."""
    if "$ref" in schema:
        name = schema["$ref"].removeprefix(REF_PREFIX)
        return st.deferred(lambda: from_schema(definitions[name], definitions))
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return st.one_of([from_schema(part, definitions) for part in schema[key]])
    if "allOf" in schema and len(schema["allOf"]) == 1:
        return from_schema(schema["allOf"][0], definitions)
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if isinstance(kind, list):
        return st.one_of([from_schema({**schema, "type": k}, definitions) for k in kind])
    if kind == "object":
        return _objects(schema, definitions)
    if kind == "array":
        items = from_schema(schema.get("items", {}), definitions)
        return st.lists(
            items, min_size=schema.get("minItems", 0), max_size=schema.get("maxItems", 6)
        )
    if kind == "string":
        return st.text(min_size=schema.get("minLength", 0), max_size=schema.get("maxLength", 20))
    if kind == "integer":
        return st.integers(schema.get("minimum"), schema.get("maximum"))
    if kind == "number":
        return st.floats(
            schema.get("minimum"), schema.get("maximum"), allow_nan=False, allow_infinity=False
        )
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    return ANY_JSON


def _objects(schema: dict[str, Any], definitions: dict[str, Any]) -> st.SearchStrategy[Any]:
    properties: dict[str, Any] = schema.get("properties", {})
    required = set(schema.get("required", ()))
    extra = schema.get("additionalProperties", True)

    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        body: dict[str, Any] = {}
        for name, part in properties.items():
            if name in required or draw(st.booleans()):
                body[name] = draw(from_schema(part, definitions))
        if extra is not False:
            values = ANY_JSON if extra is True else from_schema(extra, definitions)
            names = st.text(min_size=1, max_size=12).filter(lambda n: n not in properties)
            body.update(draw(st.dictionaries(names, values, max_size=3)))
        return body

    return build()
