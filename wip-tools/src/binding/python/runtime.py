try:
    invoke  # an async invoke(target, operation, input) the namespace already provides
except NameError:
    invoke = None

# True when invoke returns the result's JSON text rather than the decoded value, as a tool
# called from Anthropic's code execution does (`wip ptc --anthropic-tools`).
invoke_returns_text = False


class _WipAbsent:
    """The default of an optional parameter: omitted means absent, never sent as null."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<absent>"


_WIP_ABSENT = _WipAbsent()


class WipObject:
    """A proxy of one Object of this module: its methods invoke operations on its path."""

    __slots__ = ("_wip_path",)

    def __init__(self, path: str) -> None:
        self._wip_path = path

    def __repr__(self) -> str:
        return f"<WIP Object {self._wip_path!r}>"

    def __str__(self) -> str:
        return self._wip_path


def _wip_plain(value: typing.Any) -> typing.Any:
    """An argument as JSON: proxies become the paths they stand for."""
    if isinstance(value, WipObject):
        return value._wip_path
    if isinstance(value, list):
        return [_wip_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _wip_plain(item) for key, item in value.items()}
    return value


def _wip_follow(value: typing.Any, shape: typing.Any) -> typing.Any:
    """A result with each entry replaced by its proxy when the Object is in this module."""
    if shape is None:
        return value
    kind = shape[0]
    if kind == "e":
        return objects.get(value, value) if isinstance(value, str) else value
    if kind == "n":
        return _wip_follow(value, _WIP_SHAPES.get(shape[1]))
    if kind == "l":
        if not isinstance(value, list):
            return value
        return [_wip_follow(item, shape[1]) for item in value]
    if kind == "r":
        if not isinstance(value, dict):
            return value
        return {key: _wip_follow(item, shape[1].get(key)) for key, item in value.items()}
    if kind == "u":
        if not isinstance(value, dict) or "value" not in value:
            return value
        followed = dict(value)
        followed["value"] = _wip_follow(value["value"], shape[1].get(value.get("$case")))
        return followed
    return value


async def _wip_call(
    target: WipObject, operation: str, arguments: dict[str, typing.Any], shape: typing.Any
) -> typing.Any:
    tool = globals().get("invoke")
    if tool is None:
        raise RuntimeError(
            "no invoke: assign an async invoke(target, operation, input) to this module's invoke"
        )
    result = await tool(target=target._wip_path, operation=operation, input=arguments)
    if globals().get("invoke_returns_text"):
        # A failed call answers with invoke's error text, which is never JSON.
        try:
            result = json.loads(result)
        except (TypeError, ValueError):
            raise RuntimeError(result) from None
    return _wip_follow(result, shape)
