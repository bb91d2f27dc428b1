"""The puccini-rs TOSCA compiler, in-process.

``compile(source)`` turns a TOSCA service template (a path, an ``http(s)`` URL or a CSAR) into a
topology of plain dicts and lists, with every problem found; ``validate(source)`` gives the
problems only; ``compile_text`` and ``validate_text`` do the same for a template (or a CSAR)
held in memory; ``evaluate(source, state=...)`` evaluates a template against the state of its
running system (day 2) and, with ``previous=``, reports what changed. The interpreter's lock is
released while the compiler runs. A template that is
wrong, missing or unreachable never raises: it gives problems. Only misuse raises: an argument
of the wrong type is a ``TypeError``, an unknown quirk, dialect or problem code (or a mistake in
``puccini-rs.toml``) a ``ValueError``.
"""

import os
from typing import Any, Iterable, List, Literal, Mapping, Optional, Union, final

from typing_extensions import disjoint_base

__version__: str
__all__ = [
    "compile",
    "validate",
    "compile_text",
    "validate_text",
    "evaluate",
    "CompileResult",
    "EvaluateResult",
    "Problem",
    "Label",
    "__version__",
    "_cli_main",
]

_Source = Union[str, "os.PathLike[str]"]
"""A path (``str`` or ``os.PathLike``), an ``http(s)`` or ``file:`` URL, or a CSAR (``.csar``,
``.zip``, ``.tar``, ``.tar.gz``) by path or URL."""

@final
class Label:
    """A related location of a problem ("parent declared here"), possibly in another file."""

    message: str
    """What is there."""
    file: str
    """The file: a path, a URL, or ``archive!/entry`` inside an archive."""
    line: int
    """1-based line of the first character."""
    column: int
    """1-based column (in characters) of the first character."""
    end_line: int
    """Line of the end."""
    end_column: int
    """Column one past the last character."""
    def to_dict(self) -> dict[str, Any]:
        """The label as a plain dict."""

@final
class Problem:
    """One problem found in the input."""

    code: str
    """The stable kebab-case code (``puccini-rs explain CODE`` describes it)."""
    severity: Literal["error", "warning"]
    """How bad it is."""
    message: str
    """One sentence."""
    file: str
    """The file: a path, a URL, or ``archive!/entry`` inside an archive. For a source that could
    not be read at all (code ``import-failed``), the source itself, at line 1, column 1."""
    line: int
    """1-based line of the first character."""
    column: int
    """1-based column (in characters) of the first character."""
    end_line: int
    """Line of the end."""
    end_column: int
    """Column one past the last character."""
    help: Optional[str]
    """A suggestion, if there is one (for a real-world deviation: the quirk that accepts it)."""
    labels: List[Label]
    """Related locations."""
    def to_dict(self) -> dict[str, Any]:
        """The problem as a plain dict with the keys of ``puccini-rs validate --format json``
        (``code``, ``severity``, ``message``, ``file``, ``line``, ``column``, ``end_line``,
        ``end_column``, ``labels``, ``help``), ready for ``json.dumps``."""
    def __str__(self) -> str:
        """``file:line:column: severity[code]: message``."""

@disjoint_base
class CompileResult:
    """What ``compile`` gives: the topology and every problem."""

    topology: dict[str, Any]
    """The topology as plain dicts (in document order) and lists: the structure
    ``puccini-rs compile`` prints as JSON and ``puccini-rs schema`` describes
    (``tosca_definitions_version``, ``inputs``, ``node_templates``, ``relationship_templates``,
    ``groups``, ``policies``, ``outputs``, ``relationships``, …). As complete as the problems
    allowed; empty when the source could not be read."""
    problems: List[Problem]
    """Every problem, sorted by file, position and code."""
    allowed: int
    """How many problems were allowed (by ``allow``, the configuration file or an inline
    allow): not in ``problems``."""
    @property
    def ok(self) -> bool:
        """Whether no problem is an error (warnings allowed)."""
    @property
    def errors(self) -> List[Problem]:
        """The problems that are errors."""
    @property
    def warnings(self) -> List[Problem]:
        """The problems that are warnings."""
    def evaluate(
        self,
        state: Union[str, "os.PathLike[str]", Mapping[str, Any]],
        *,
        previous: Union[None, str, "os.PathLike[str]", Mapping[str, Any]] = None,
    ) -> EvaluateResult:
        """Evaluates the compiled template against ``state``, the state document of its running
        system (a path to YAML or JSON, or a dict, as for ``puccini_rs.evaluate``), as
        ``puccini_rs.evaluate`` does with the same arguments, without reading the template
        again: only the last phase of the compilation runs. ``previous`` is as for
        ``puccini_rs.evaluate``. The result can be evaluated again in turn. A state that is
        wrong, missing or unreadable never raises: it gives problems; a source that could not be
        read gives its problems again and an empty topology. Misuse raises: ``TypeError`` for an
        argument of the wrong type, and for a dict ``ValueError`` or ``TypeError`` when a value
        cannot be JSON (NaN, an object), as ``json.dumps`` does."""

@final
class EvaluateResult(CompileResult):
    """What ``evaluate`` gives: a ``CompileResult`` whose topology is evaluated against the
    state (every call the state answers evaluated; empty when the template or the state could
    not be read) and whose problems are the template's and the state's, then those of the
    previous state (when ``previous`` is one); with the change report."""

    changes: Optional[dict[str, Any]]
    """With ``previous``: the change report as plain dicts, the JSON
    ``puccini-rs evaluate --previous`` prints (``puccini-rs schema changes``): ``values`` (the
    values that changed, as ``puccini-rs diff`` reports them), ``compared`` (how many operations
    and notifications were compared) and ``run_again`` (those to run again, each with ``node``,
    ``interface``, ``operation``, ``notification`` and ``reasons``). ``None`` without
    ``previous``."""

def evaluate(
    source: _Source,
    *,
    state: Union[str, "os.PathLike[str]", Mapping[str, Any]],
    previous: Union[None, str, "os.PathLike[str]", Mapping[str, Any]] = None,
    inputs: Optional[Mapping[str, Any]] = None,
    quirks: Iterable[str] = (),
    offline: bool = False,
    dialect: Optional[str] = None,
    flavour: Optional[str] = None,
    allow: Iterable[str] = (),
    warn: Iterable[str] = (),
    deny: Iterable[str] = (),
    config: Union[None, str, "os.PathLike[str]", Literal[False]] = None,
    map_urls: Optional[Mapping[str, Union[str, "os.PathLike[str]"]]] = None,
    profile_paths: Iterable[Union[str, "os.PathLike[str]"]] = (),
    timeout: float = 60.0,
    network_deadline: float = 60.0,
    trust_roots: Iterable[Union[str, "os.PathLike[str]"]] = (),
) -> EvaluateResult:
    """Evaluates the TOSCA service template at ``source`` against ``state``, the state document
    of its running system (a path to YAML or JSON, or a dict; ``puccini-rs schema state`` is its
    schema), as ``puccini-rs evaluate`` does: attribute values, operation outputs and new input
    values are put into the topology and every call they answer is evaluated. A dict's problems
    are located in ``json.dumps(state, indent=2)``, named ``<state>``.

    ``previous`` is the previous evaluation: the previous state document (a path) or the
    previous topology (a dict, such as an earlier ``EvaluateResult.topology``). With it,
    ``EvaluateResult.changes`` says what changed and which operations must run again. The other
    arguments are those of ``compile``. Problems never raise; ``TypeError`` and ``ValueError``
    as ``compile`` (a ``previous`` dict that is not a topology is a ``TypeError``).
    """

def compile(
    source: _Source,
    *,
    inputs: Optional[Mapping[str, Any]] = None,
    quirks: Iterable[str] = (),
    offline: bool = False,
    dialect: Optional[str] = None,
    flavour: Optional[str] = None,
    allow: Iterable[str] = (),
    warn: Iterable[str] = (),
    deny: Iterable[str] = (),
    config: Union[None, str, "os.PathLike[str]", Literal[False]] = None,
    map_urls: Optional[Mapping[str, Union[str, "os.PathLike[str]"]]] = None,
    profile_paths: Iterable[Union[str, "os.PathLike[str]"]] = (),
    timeout: float = 60.0,
    network_deadline: float = 60.0,
    trust_roots: Iterable[Union[str, "os.PathLike[str]"]] = (),
) -> CompileResult:
    """Compiles the TOSCA service template at ``source`` into a topology.

    ``inputs`` maps input names to values (``str``, ``int``, ``float``, ``bool``, ``None``, and
    lists and dicts of them), each checked against its input's declared type: ``8080`` is an
    integer, ``"8080"`` a string. ``quirks`` names known real-world deviations to accept as
    warnings, one by one or by set (``"tosca-parser"`` chooses every deviation templates written
    for OpenStack tosca-parser rely on). ``offline=True`` refuses every URL. ``dialect`` reads
    files in a dialect (``"tosca-2.0-draft"``). ``flavour`` chooses a VNF package's deployment
    flavour when its VNF node's ``flavour_id`` comes from an input without a value (as
    ``--flavour``); a substituted node's topology is under its ``"substitution"`` key
    (``{"template": ..., "topology": {...}}``).

    ``allow``, ``warn`` and ``deny`` set the level of problem codes (or of ``"warnings"``, every
    warning), as ``--allow``, ``--warn`` and ``--deny`` do: an allowed problem is left out (and
    counted in ``CompileResult.allowed``), a denied one is an error. A code given to two of them
    takes the later of allow, warn, deny. Errors are never lowered: ``allow`` or ``warn`` of an
    error's code is a ``ValueError``. ``config`` is the configuration file: ``None`` (the default)
    finds ``puccini-rs.toml`` from the source's folder upwards to the repository root, as the
    command line does; a path names it; ``False`` reads none. The arguments win over the file.

    How files and URLs are reached, as the command line's options: ``map_urls`` maps URL
    prefixes to URL or path prefixes (``--map-url FROM=TO``, in order, the first match used;
    ``"csar:PATH"`` is PATH inside the package being compiled), ``profile_paths`` are folders of
    profiles imported by name (``--profile-path``), ``timeout`` is the seconds one remote read
    may take (``--timeout``), ``network_deadline`` the seconds all the remote reads of one
    compilation may take (``--network-deadline``), and ``trust_roots`` are PEM files of the
    certificates a signed package's signer must chain to (``--trust-root``). Messages name these
    keyword arguments where the command line's say its options (``map_urls`` for ``--map-url``,
    ``quirks=["NAME"]`` for ``--quirk NAME``).

    A required input with no value and no default is an error here, since the topology cannot
    be complete (``validate`` reports it as a warning).

    Raises ``TypeError`` for an argument of the wrong type and ``ValueError`` for an unknown
    quirk, dialect or problem code, a timeout that is not a positive number of seconds, an
    unreadable trust root or a mistake in the configuration file; never for a problem in the
    template.
    """

def validate(
    source: _Source,
    *,
    inputs: Optional[Mapping[str, Any]] = None,
    quirks: Iterable[str] = (),
    offline: bool = False,
    dialect: Optional[str] = None,
    flavour: Optional[str] = None,
    allow: Iterable[str] = (),
    warn: Iterable[str] = (),
    deny: Iterable[str] = (),
    config: Union[None, str, "os.PathLike[str]", Literal[False]] = None,
    map_urls: Optional[Mapping[str, Union[str, "os.PathLike[str]"]]] = None,
    profile_paths: Iterable[Union[str, "os.PathLike[str]"]] = (),
    timeout: float = 60.0,
    network_deadline: float = 60.0,
    trust_roots: Iterable[Union[str, "os.PathLike[str]"]] = (),
) -> List[Problem]:
    """Checks the TOSCA service template at ``source``: its problems, sorted by file, position
    and code, an empty list when it is clean.

    Takes the arguments of ``compile``. Unlike ``compile``, a required input left without a
    value is only a ``missing-input`` warning: the template is valid, and the orchestrator
    supplies the value when it deploys.
    """

def compile_text(
    text: Union[str, bytes],
    *,
    name: Union[str, "os.PathLike[str]"] = "<text>",
    inputs: Optional[Mapping[str, Any]] = None,
    quirks: Iterable[str] = (),
    offline: bool = False,
    dialect: Optional[str] = None,
    flavour: Optional[str] = None,
    allow: Iterable[str] = (),
    warn: Iterable[str] = (),
    deny: Iterable[str] = (),
    config: Union[None, str, "os.PathLike[str]", Literal[False]] = None,
    map_urls: Optional[Mapping[str, Union[str, "os.PathLike[str]"]]] = None,
    profile_paths: Iterable[Union[str, "os.PathLike[str]"]] = (),
    timeout: float = 60.0,
    network_deadline: float = 60.0,
    trust_roots: Iterable[Union[str, "os.PathLike[str]"]] = (),
) -> CompileResult:
    """Compiles a TOSCA service template held in memory: ``text`` is its YAML (``str``) or, as
    ``bytes``, its YAML or a CSAR (a zip, tar or tar.gz archive, told by its contents).

    ``name`` is the file it stands for: problems are located at ``name:line:column`` (in an
    archive, ``name!/entry:line:column``), and relative imports are read from ``name``'s
    folder. The file ``name`` itself is never read. The other arguments are those of
    ``compile``.
    """

def validate_text(
    text: Union[str, bytes],
    *,
    name: Union[str, "os.PathLike[str]"] = "<text>",
    inputs: Optional[Mapping[str, Any]] = None,
    quirks: Iterable[str] = (),
    offline: bool = False,
    dialect: Optional[str] = None,
    flavour: Optional[str] = None,
    allow: Iterable[str] = (),
    warn: Iterable[str] = (),
    deny: Iterable[str] = (),
    config: Union[None, str, "os.PathLike[str]", Literal[False]] = None,
    map_urls: Optional[Mapping[str, Union[str, "os.PathLike[str]"]]] = None,
    profile_paths: Iterable[Union[str, "os.PathLike[str]"]] = (),
    timeout: float = 60.0,
    network_deadline: float = 60.0,
    trust_roots: Iterable[Union[str, "os.PathLike[str]"]] = (),
) -> List[Problem]:
    """Checks a TOSCA service template held in memory and returns its problems: the arguments
    of ``compile_text``, the reading of ``validate``."""

def _cli_main() -> int:
    """The ``puccini-rs`` console script: runs the command line with ``sys.argv`` in-process and
    returns its exit code (0, 1 or 2). Not an API: run the command instead."""
