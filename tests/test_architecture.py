"""The package's dependency rules, checked on the source: only the app imports PySide6; the rules import nothing else."""

from __future__ import annotations

import ast
from pathlib import Path

SCORER = Path(__file__).resolve().parents[1] / "scorer"


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def modules(sub: str = "") -> list[Path]:
    return sorted((SCORER / sub).rglob("*.py"))


def test_only_the_app_imports_qt() -> None:
    offenders = [
        str(p.relative_to(SCORER))
        for p in modules()
        if "app" not in p.relative_to(SCORER).parts and any(n.split(".")[0] == "PySide6" for n in imports_of(p))
    ]
    assert offenders == []


def test_the_rules_depend_on_nothing_else_of_the_package_but_its_errors_and_words() -> None:
    for p in modules("rules"):
        for name in imports_of(p):
            if name.startswith("scorer."):
                assert name.startswith(("scorer.rules", "scorer.errors", "scorer.words")), f"{p.name} imports {name}"
            assert name.split(".")[0] not in {"numpy", "cv2", "onnxruntime", "PySide6"}, f"{p.name} imports {name}"


def test_nothing_outside_the_app_imports_the_app() -> None:
    # Only the top of the house, the command line (scorer/cli.py or the scorer/cli/ package), starts the app.
    top = ("cli.py", "cli")
    for p in modules():
        rel = p.relative_to(SCORER).parts
        if "app" in rel or rel[0] in top:
            continue
        assert not any(n.startswith("scorer.app") for n in imports_of(p)), p


def test_layers_point_one_way() -> None:
    # vision knows nothing of layout, pipeline or app; layout nothing of pipeline or app.
    for sub, forbidden in (("vision", ("scorer.layout", "scorer.pipeline")), ("layout", ("scorer.pipeline",))):
        for p in modules(sub):
            bad = [n for n in imports_of(p) if n.startswith(forbidden)]
            assert not bad, f"{p.relative_to(SCORER)} imports {bad}"


def test_no_module_binds_a_top_level_name_twice() -> None:
    # A constant defined again further down a module silently replaces the first for every function
    # (reconstruct.py's BESIDE: a blank double's pre-filter ran at the loose-group distance, 2.5 not 1.15).
    for p in modules():
        seen: dict[str, int] = {}
        for node in ast.parse(p.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign):
                names = [t.id for t in node.targets if isinstance(t, ast.Name)]
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names = [node.target.id]
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names = [node.name]
            else:
                continue
            for name in names:
                assert name not in seen, f"{p.relative_to(SCORER)}: {name} bound at lines {seen[name]} and {node.lineno}"
                seen[name] = node.lineno


def test_the_graph_is_rebuilt_from_geometry_alone() -> None:
    # reconstruct.py knows tiles and the rules, not how they were seen: the reader's doubts are reading.py's.
    names = imports_of(SCORER / "layout" / "reconstruct.py")
    assert not [n for n in names if n.startswith(("scorer.vision", "cv2", "onnxruntime"))], names


def test_every_deliberate_error_is_in_the_one_tree() -> None:
    # Error classes live in scorer/errors.py (a module re-exports its own, so imports keep working);
    # the one exception is the start screen's signal to its form (a field to mark red).
    allowed = {("app/start_form.py", "FormError")}
    for p in modules():
        if p.name == "errors.py" and p.parent == SCORER:
            continue
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef):
                continue
            bases = [b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute) else "" for b in node.bases]
            if node.name.endswith("Error") or any(b.endswith(("Error", "Exception", "Unavailable", "Move")) for b in bases):
                where = str(p.relative_to(SCORER))
                assert (where, node.name) in allowed, f"{where}: {node.name} belongs in scorer/errors.py"


def test_a_catch_all_says_why() -> None:
    # `except Exception` only where it guards a worker thread, a listener or a plug-in, saying so on its line.
    for p in modules():
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            if "except Exception" in line or "except BaseException" in line or line.strip() == "except:":
                assert "#" in line, f"{p.relative_to(SCORER)}:{n}: a catch-all without its reason"


# Rooms a newcomer can read (issue 39): a module of a few hundred lines, a function that fits a screen.
MODULE_LINES = 420
FUNCTION_LINES = 60


def test_every_module_and_function_is_small_enough_to_read() -> None:
    too_long = []
    for p in modules():
        source = p.read_text(encoding="utf-8")
        if (lines := source.count("\n")) > MODULE_LINES:
            too_long.append(f"{p.relative_to(SCORER)}: {lines} lines (at most {MODULE_LINES})")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > FUNCTION_LINES:
                    too_long.append(f"{p.relative_to(SCORER)}:{node.lineno} {node.name}: {length} lines (at most {FUNCTION_LINES})")
    assert too_long == []
