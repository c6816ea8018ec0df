"""The README's quick start stays true: CI runs its test command word for word."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def quick_start_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    block = text.split("## Quick start", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line and not line.startswith("#")]


def test_the_readme_gives_two_quick_start_commands():
    commands = quick_start_commands()
    assert len(commands) == 2
    assert "vpsleuth" in commands[0] and "pytest" in commands[1]


def test_ci_runs_the_readme_test_command_word_for_word():
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert quick_start_commands()[1] in ci
