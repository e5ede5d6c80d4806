"""Refusals in plain words: a request the framework refused (validation, a body it could
not read, an address that leads nowhere) becomes one sentence for a person, never in the
framework's or pydantic's own words. Built from each problem's type, place and context, and
from the refusing route's declared limits, so no route needs a table of special cases."""

from __future__ import annotations

import contextlib
import operator
from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError


def http_sentence(
    request: Request, status: int, detail: str, cause: BaseException | None = None
) -> str:
    """The refusal of a route or of the framework as one sentence. Our own routes' details
    are sentences already; the framework's are bare status phrases ("Not Found") or its
    "There was an error parsing the body", said by what `cause` (the error behind it) was."""
    if detail.endswith("."):
        return detail
    if status == 400:
        return unreadable_body(cause)
    if status == 404:
        return "There is nothing at this address."
    if status == 405:
        return f"This address does not take {request.method[:10]} requests."
    try:
        phrase = HTTPStatus(status).phrase.lower()
    except ValueError:
        return "This request was refused."
    return f"This request was refused ({phrase})."


def unreadable_body(cause: BaseException | None) -> str:
    r"""Why a body the framework could not parse was not read, by the error it met: bytes
    that are not UTF-8, a number too long for Python to read, or nesting too deep.

    >>> unreadable_body(UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"))
    'The request body is not UTF-8 text.'
    """
    if isinstance(cause, UnicodeDecodeError):
        return "The request body is not UTF-8 text."
    if isinstance(cause, RecursionError):
        return "The request body could not be read: it is nested too deeply."
    if isinstance(cause, ValueError) and "digits" in str(cause):
        return "The request body holds a number too long to read."
    return "The request body could not be read."


def first_problem(error: RequestValidationError, request: Request | None = None) -> str:
    """One plain sentence for a request that failed validation, built from the first
    problem's type, place and context (and the field's declared limits, when the route
    that refused it is known), never in pydantic's own words."""
    problems = error.errors()
    if not problems:
        return "The request is malformed."
    first = problems[0]
    loc = tuple(first.get("loc", ()))
    limits = _declared_limits(request, loc) if request is not None else {}
    return _sentence(first, limits)


#: Where a request's value came from, in words ("the address" for the query and the path).
SOURCES = {
    "body": "the request body",
    "query": "the address",
    "path": "the address",
    "header": "the request's headers",
    "cookie": "the cookies",
}
#: What a value of each kind must be, by pydantic's error types.
KINDS = {
    "int": "a whole number",
    "float": "a number",
    "decimal": "a number",
    "bool": "true or false",
    "string": "text",
    "list": "a list",
    "tuple": "a list",
    "set": "a list",
    "dict": "a JSON object",
    "model": "a JSON object",
    "model_attributes": "a JSON object",
    "none": "null",
}
#: Why a whole number sent as 1e3 or 1000.0 is refused.
NO_FRACTION = "a whole number takes no decimal point or exponent."
#: A number's limits as pydantic names them, in the order they read best.
LIMIT_NAMES = ("ge", "gt", "le", "lt")


def _sentence(problem: Mapping[str, Any], limits: Mapping[str, Any]) -> str:
    """One pydantic problem (type, loc, input, ctx) as a sentence; `limits` are the field's
    declared bounds, which pydantic reports only one at a time.

    >>> _sentence({"type": "literal_error", "loc": ("body", "levels", 0), "input": "godlike",
    ...            "ctx": {"expected": "'easy', 'medium', 'hard' or 'expert'"}}, {})
    "The levels must each be easy, medium, hard or expert, not 'godlike'."
    >>> _sentence({"type": "int_parsing", "loc": ("query", "round"), "input": "abc"},
    ...           {"ge": 1, "le": 10000})
    "The round must be a whole number from 1 to 10000, not 'abc'."
    >>> _sentence({"type": "too_long", "loc": ("body", "names"),
    ...            "ctx": {"max_length": 2, "actual_length": 3}}, {})
    'There can be at most 2 names, not 3.'
    >>> _sentence({"type": "missing", "loc": ("query", "seats")}, {})
    'The seats are missing from the address.'
    """
    kind = str(problem.get("type", ""))
    loc = tuple(problem.get("loc", ()))
    ctx: Mapping[str, Any] = problem.get("ctx") or {}
    source = SOURCES.get(str(loc[0])) if loc else None
    parts = loc[1:] if source else loc
    names = [part for part in parts if isinstance(part, str)]
    each = bool(parts) and isinstance(parts[-1], int)
    subject = f"The {_words(names[-1])}" if names else "The request body"
    must = f"{subject} must each be" if each else f"{subject} must be"
    number = kind in ("greater_than", "greater_than_equal", "less_than", "less_than_equal")
    given_value = _as_number(problem.get("input")) if number else problem.get("input")
    given = _shown(given_value)
    not_given = f", not {given}" if given else ""
    if kind == "json_invalid":
        return "The request body is not valid JSON."
    if kind == "missing":
        if not names:
            return "The request needs a body: a JSON object."
        # "The seats are missing", as a person says it of a list named in the plural.
        verb = "are" if names[-1].endswith("s") else "is"
        return f"{subject} {verb} missing from {source or 'the request'}."
    if kind == "extra_forbidden":
        return f"This request does not take a field called {_field_name(parts[-1])}."
    if kind in ("literal_error", "enum"):
        choices = str(ctx.get("expected", "")).replace("'", "")
        return f"{must} {choices}{not_given}."
    if kind in ("too_long", "too_short"):
        field = _words(names[-1]) if names else "entries"
        actual = ctx.get("actual_length")
        if kind == "too_long":
            return f"There can be at most {ctx.get('max_length')} {field}, not {actual}."
        if ctx.get("min_length") == 1:
            return f"{subject} cannot be an empty list."
        return f"There must be at least {ctx.get('min_length')} {field}, not {actual}."
    if kind == "string_too_long":
        return f"{subject} can be at most {ctx.get('max_length')} characters long."
    if kind == "string_too_short":
        return f"{subject} must be at least {ctx.get('min_length')} characters long."
    if number or kind == "multiple_of":
        what = "a whole number" if isinstance(given_value, int) else "a number"
        bounds = {**limits, **{name: ctx[name] for name in LIMIT_NAMES if name in ctx}}
        if kind == "multiple_of":
            return f"{must} a multiple of {ctx.get('multiple_of')}{not_given}."
        return f"{must} {what}{_range(bounds)}{not_given}."
    base = kind.removesuffix("_type").removesuffix("_parsing").removesuffix("_from_float")
    whole = _whole_float(problem.get("input"))
    if kind == "int_type" and whole is not None and _within(whole, limits):
        # A whole number sent as 1e3 or 1000.0: JSON reads both as floats, which a field of
        # whole numbers (StrictInt) refuses whatever their value. "Must be a whole number,
        # not 1000" would read as nonsense, so the sentence says how to write it.
        example = f", as {whole}" if _shown(whole) else ""
        return f"{must} written in digits alone{example}: {NO_FRACTION}"
    if base in KINDS:
        numeric = base in ("int", "float", "decimal")
        return f"{must} {KINDS[base]}{_range(limits) if numeric else ''}{not_given}."
    return f"{subject} is not valid."


def _range(limits: Mapping[str, Any]) -> str:
    """ " from 1 to 10000", " of at least 0", " of at most 9", "" (no limits)."""
    if "ge" in limits and "le" in limits:
        return f" from {limits['ge']} to {limits['le']}"
    words = {"ge": "of at least", "gt": "above", "le": "of at most", "lt": "below"}
    found = [f"{words[name]} {limits[name]}" for name in LIMIT_NAMES if name in limits]
    return " " + " and ".join(found) if found else ""


def _declared_limits(request: Request, loc: tuple[Any, ...]) -> dict[str, Any]:
    """The number limits (ge, gt, le, lt) the field at `loc` declares, read from the route
    that refused the request: its query (or path, header, cookie) parameters, or its body's
    model. Empty when the field is not found there."""
    route = request.scope.get("route")
    dependant = getattr(route, "dependant", None)
    if not loc or dependant is None:
        return {}
    source, *path = loc
    info: Any = None
    if source == "body":
        body = getattr(route, "body_field", None)
        model = getattr(getattr(body, "field_info", None), "annotation", None)
        for part in path:
            fields = getattr(model, "model_fields", None)
            if not isinstance(part, str) or not isinstance(fields, dict) or part not in fields:
                info = None
                break
            info = fields[part]
            model = info.annotation
    else:
        for field in getattr(dependant, f"{source}_params", ()):
            if path and path[0] in (field.alias, field.name):
                info = field.field_info
    limits: dict[str, Any] = {}
    for constraint in getattr(info, "metadata", ()):
        for name in LIMIT_NAMES:
            value = getattr(constraint, name, None)
            if value is not None:
                limits[name] = value
    return limits


#: Names that do not read as a noun: "The since must be ..." says what it is instead.
FIELD_WORDS = {"since": "move count given as since"}


def _words(name: str) -> str:
    """A field's name as words: "hold_time" -> "hold time"; odd names quoted and cut short.

    >>> _words("since")
    'move count given as since'
    """
    if name in FIELD_WORDS:
        return FIELD_WORDS[name]
    return name.replace("_", " ") if name.isidentifier() else _field_name(name)


def _as_number(value: Any) -> Any:
    """A number from the address ("0") as the number it was read as, to show it as one."""
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            return int(value)
        with contextlib.suppress(ValueError):
            return float(value)
    return value


def _whole_float(value: Any) -> int | None:
    """A number sent as a fraction that is whole (1e3, 1000.0) as the whole number, else
    None."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def _within(value: int, limits: Mapping[str, Any]) -> bool:
    """Whether `value` keeps a field's declared limits (ge, gt, le, lt)."""
    checks = {"ge": operator.ge, "gt": operator.gt, "le": operator.le, "lt": operator.lt}
    return all(bool(checks[name](value, limits[name])) for name in LIMIT_NAMES if name in limits)


def _shown(value: Any) -> str:
    """A value the client sent, as a refusal may quote it: short scalars only, a whole
    number sent as a fraction (1e3, -5.0) as the whole number it is ("1000", "-5").

    >>> _shown(-1e3), _shown(2.5), _shown(1e30)
    ('-1000', '2.5', '')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    whole = _whole_float(value)
    if whole is not None:
        value = whole
    if isinstance(value, int | float):
        return str(value) if len(str(value)) <= 20 else ""
    if isinstance(value, str):
        return _field_name(value) if value.isprintable() and value.strip() else repr(value[:20])
    return ""


def _field_name(part: object) -> str:
    """A name or value the client chose, safe to show in a refusal: it may be long or hold
    line breaks, so it is quoted, and cut short when long."""
    text = repr(str(part))
    return text if len(text) <= 40 else text[:38] + "…'"
