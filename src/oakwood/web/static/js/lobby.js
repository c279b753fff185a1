// The lobby: the list of tables (refreshed every few seconds) with Join / Watch / Replay, and the form that
// creates a table from the catalog (every option with its default and help, each seat a person or a bot level).
import { el } from "./common.js";

const $ = (id) => document.getElementById(id);
let catalog = null;

function showBanner(text) {
  $("banner").querySelector(".msg").textContent = text;
  $("banner").hidden = false;
}

async function refreshTables() {
  try {
    const response = await fetch("/api/tables");
    const { tables } = await response.json();
    drawTables(tables);
  } catch {
    /* the next refresh tries again */
  }
}

function drawTables(tables) {
  const list = $("tables");
  list.replaceChildren();
  if (!tables.length) {
    list.append(el("li", { class: "hint" }, "No tables yet: start one."));
    return;
  }
  const order = { waiting: 0, playing: 1, finished: 2 };
  tables.sort((a, b) => order[a.status] - order[b.status]);
  for (const table of tables) {
    const mine = localStorage.getItem(`oakwood-token-${table.id}`) !== null;
    const free = table.seats.some((s) => s.kind === "human" && s.name === null);
    const who = table.seats.map((s) => s.name || (s.kind === "bot" ? `bot (${s.level})` : "free seat")).join(", ");
    const links = el("div", { class: "links" });
    if (mine && table.status !== "finished") links.append(el("a", { href: `/t/${table.id}`, class: "join" }, "Resume"));
    else if (table.status === "waiting" && free) links.append(el("a", { href: `/t/${table.id}`, class: "join" }, "Join"));
    if (table.status !== "finished") links.append(el("a", { href: `/t/${table.id}`, class: "watch" }, "Watch"));
    if (table.status === "finished" && table.game_id !== null) links.append(el("a", { href: `/replay/${table.game_id}`, class: "replay" }, "Replay"));
    list.append(el("li", { class: "table-item", dataset: { table: table.id } },
      el("strong", {}, `${table.title} · ${table.players === 1 ? "solo" : `${table.players} players`}`, el("span", { class: "badge" }, table.status)),
      links,
      el("span", { class: "who" }, who, table.turn_seconds ? ` · ${table.turn_seconds} s a move` : "")));
  }
}

function game() { return catalog.games.find((g) => g.name === $("game").value); }

function drawSeats() {
  const g = game();
  const players = Math.max(g.min_players, Math.min(g.max_players, Number($("players").value) || g.min_players));
  const box = $("seats");
  const before = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren();
  for (let i = 0; i < players; i++) {
    const select = el("select", { id: `seat-${i}`, name: `seat-${i}` },
      el("option", { value: "human" }, i === 0 ? "You" : "A person (invite link)"),
      catalog.levels.map((level) => el("option", { value: level }, `Bot: ${level}`)));
    select.value = before[i] || (i === 0 ? "human" : "medium");
    box.append(el("label", { for: `seat-${i}` }, `Seat ${i + 1}`), select);
  }
}

function drawGame() {
  const g = game();
  const players = $("players");
  players.min = g.min_players;
  players.max = g.max_players;
  if (!players.value || players.value < g.min_players || players.value > g.max_players) players.value = Math.max(g.min_players, Math.min(2, g.max_players));
  drawSeats();
  const box = $("options");
  box.replaceChildren();
  for (const option of g.options) {
    const id = `option-${option.name}`;
    let input;
    if (option.type === "bool") {
      input = el("input", { id, type: "checkbox", dataset: { option: option.name, kind: "bool" } });
      input.checked = option.default;
    } else if (option.choices) {
      input = el("select", { id, dataset: { option: option.name, kind: option.type } },
        option.choices.map((c) => el("option", { value: String(c) }, String(c))));
      input.value = String(option.default);
    } else {
      input = el("input", { id, type: "number", dataset: { option: option.name, kind: option.type },
        step: option.type === "float" ? "any" : "1", min: option.minimum, max: option.maximum, value: String(option.default) });
    }
    const title = option.name.replaceAll("_", " ");
    box.append(el("label", { for: id }, title), input,
      el("span", { class: "help" }, option.help, ` (default: ${String(option.default)}${option.ruling ? `; ${option.ruling}` : ""})`));
  }
}

function options() {
  const out = {};
  const g = game();
  for (const input of $("options").querySelectorAll("[data-option]")) {
    const info = g.options.find((o) => o.name === input.dataset.option);
    let value;
    if (input.dataset.kind === "bool") value = input.checked;
    else if (input.dataset.kind === "int") value = parseInt(input.value, 10);
    else if (input.dataset.kind === "float") value = parseFloat(input.value);
    else value = input.value;
    if (value !== info.default) out[info.name] = value;
  }
  return out;
}

async function create(event) {
  event.preventDefault();
  const seats = [...$("seats").querySelectorAll("select")].map((s) => s.value);
  const body = {
    game: $("game").value,
    players: seats.length,
    options: options(),
    seats,
    name: $("name").value,
    turn_seconds: $("timer").checked ? parseInt($("timer-seconds").value, 10) : null,
  };
  const response = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const answer = await response.json();
  if (!response.ok) { showBanner(answer.error ? answer.error.message : "The table could not be created."); return; }
  localStorage.setItem(`oakwood-token-${answer.table.id}`, answer.token);
  localStorage.setItem("oakwood-name", body.name);
  location.href = `/t/${answer.table.id}`;
}

async function start() {
  $("banner-close").addEventListener("click", () => { $("banner").hidden = true; });
  $("name").value = localStorage.getItem("oakwood-name") || "";
  $("timer").addEventListener("change", () => { $("timer-seconds").disabled = !$("timer").checked; });
  const response = await fetch("/api/catalog");
  catalog = await response.json();
  const select = $("game");
  for (const g of catalog.games) select.append(el("option", { value: g.name }, g.title));
  select.addEventListener("change", drawGame);
  $("players").addEventListener("input", drawSeats);
  drawGame();
  $("create").addEventListener("submit", create);
  refreshTables();
  setInterval(refreshTables, 4000);
}

start();
