"""A report renders in headless Chromium without a console error, every plot loaded; a screenshot of it is
kept under ``artifacts/reports`` (CI's artifacts)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page
from typer.testing import CliRunner

from oakwood.cli.main import app

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "reports"


def test_a_report_renders_in_chromium_without_console_errors(page: Page, tmp_path: Path) -> None:
    out = tmp_path / "report"
    args = ["analyze", "nutty", "--players", "1-2", "--games", "12", "--workers", "1", "--out", str(out)]
    # two options: a grid, its interaction and the equivalence column rendered too
    args += [
        "--vary",
        "win_at_20=finish_round",
        "--vary",
        "max_rounds=8",
        "--margin",
        "share=0.2",
        "--margin",
        "length=30",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type in ("error", "warning") else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("requestfailed", lambda request: problems.append(f"failed: {request.url}"))
    page.goto((out / "report.html").as_uri())
    assert page.title() == "Nutty Squirrels of the Oakwood Forest: balance report"
    assert page.locator("h2").all_inner_texts()[:3] == ["Findings", "Solo", "2 players"]
    images = page.locator("img")
    assert images.count() == len(list(out.glob("*.png")))
    loaded = page.evaluate("Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)")
    assert loaded, "a plot did not load"
    assert page.locator(".findings li").count() >= 4
    assert page.locator("h3", has_text="Grid of win_at_20 × max_rounds").count() == 2  # solo and 2 players
    assert page.locator("th", has_text="Interaction [95 %]").count() == 2
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 1200, "height": 900})
    page.screenshot(path=str(ARTIFACTS / "nutty-report.png"), full_page=True)
    assert problems == []
