// The replay page: step forward and back (buttons, slider and arrow keys) through /api/replays/{id}/{step},
// from any seat's view or the public one, drawn by the same game modules as a live table.
import { el, seatLabel } from "./common.js";

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(location.pathname.split("/")[2] || "");
const params = new URLSearchParams(location.search);
const view = { info: null, step: Number(params.get("step") || 0), seat: params.get("seat") ?? "", module: null, previous: null, loading: 0 };

function showBanner(text) {
  $("banner").querySelector(".msg").textContent = text;
  $("banner").hidden = false;
}

async function load() {
  const ticket = ++view.loading;
  const seat = view.seat === "" ? "" : `?seat=${encodeURIComponent(view.seat)}`;
  const response = await fetch(`/api/replays/${encodeURIComponent(gameId)}/${view.step}${seat}`);
  const update = await response.json();
  if (ticket !== view.loading) return;
  if (!response.ok) { showBanner(update.error ? update.error.message : "This step could not be loaded."); return; }
  draw(update);
}

function draw(update) {
  const info = view.info;
  $("step-label").textContent = `step ${view.step} of ${info.steps}`;
  $("slider").value = String(view.step);
  $("prev").disabled = $("first").disabled = view.step <= 0;
  $("next").disabled = $("last").disabled = view.step >= info.steps;
  history.replaceState(null, "", `?step=${view.step}${view.seat === "" ? "" : `&seat=${view.seat}`}`);
  const obs = update.observation;
  const toAct = new Set(obs.terminal ? [] : obs.to_act || []);
  $("seats").replaceChildren(...update.table.seats.map((s) => el("div", { class: `seat${toAct.has(s.seat) ? " turn" : ""}` },
    el("span", { class: `dot ${s.kind === "bot" ? "bot" : "away"}`, "aria-hidden": "true" }),
    el("span", { class: "seat-name" }, seatLabel(update.table, s.seat)),
    el("span", { class: "seat-score" }, obs.scores ? String(obs.scores[s.seat]) : ""),
    el("span", { class: "seat-meta" }, s.kind === "bot" ? "bot" : "person", toAct.has(s.seat) ? el("span", { class: "badge turn" }, "to act") : null))));
  const log = $("log");
  log.replaceChildren(...update.events.map((e, i) => el("li", { class: i === update.events.length - 1 ? "new" : "" }, e.text)));
  log.scrollTop = log.scrollHeight;
  const ctx = {
    act: () => false,
    announce: () => {},
    seatName: (seat) => seatLabel(update.table, seat),
    fourColour: document.body.classList.contains("four-colour"),
    previous: view.previous,
  };
  try {
    view.module.render($("game"), update, ctx);
  } catch (exc) {
    console.error(exc);
    $("game").replaceChildren(el("pre", {}, update.text));
  }
  view.previous = update;
}

function go(step) {
  const next = Math.max(0, Math.min(view.info.steps, step));
  if (next === view.step && view.previous) return;
  view.step = next;
  load();
}

async function start() {
  $("banner-close").addEventListener("click", () => { $("banner").hidden = true; });
  const four = $("four-colour");
  four.checked = localStorage.getItem("oakwood-four-colour") === "1";
  document.body.classList.toggle("four-colour", four.checked);
  four.addEventListener("change", () => {
    document.body.classList.toggle("four-colour", four.checked);
    localStorage.setItem("oakwood-four-colour", four.checked ? "1" : "0");
    view.previous = null;
    load();
  });
  const response = await fetch(`/api/replays/${encodeURIComponent(gameId)}`);
  const info = await response.json();
  if (!response.ok) { showBanner(info.error ? info.error.message : "There is no such replay."); return; }
  view.info = info;
  view.step = Math.max(0, Math.min(info.steps, view.step));
  $("game-title").textContent = `${info.title} — replay of game ${info.game_id}`;
  document.title = `Oakwood — ${info.title} replay`;
  $("status").textContent = `${info.players} players · ${info.steps} moves`;
  const select = $("seat");
  info.names.forEach((name, seat) => select.append(el("option", { value: String(seat) }, name)));
  select.value = view.seat;
  select.addEventListener("change", () => { view.seat = select.value; view.previous = null; load(); });
  $("slider").max = String(info.steps);
  $("slider").addEventListener("input", () => go(Number($("slider").value)));
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(view.step - 1));
  $("next").addEventListener("click", () => go(view.step + 1));
  $("last").addEventListener("click", () => go(info.steps));
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
    if (event.key === "ArrowRight") { event.preventDefault(); go(view.step + 1); }
    else if (event.key === "ArrowLeft") { event.preventDefault(); go(view.step - 1); }
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(info.steps);
  });
  try {
    view.module = await import(`./games/${info.game}.js`);
  } catch (exc) {
    view.module = { render: (root, update) => root.replaceChildren(el("pre", {}, update.text)) };
  }
  load();
}

start();
