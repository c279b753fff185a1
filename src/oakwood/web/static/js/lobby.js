// The lobby: the tables whose game goes on (Join / Resume / Watch, and Abandon for a paused table of yours), the
// games that ended (when, who won, the scores, Replay), and the form that creates a table from the catalog: every
// option drawn as a fitting control with its default and help, each seat a person or a bot level. Only the options
// a person changed are sent; the others keep the game's defaults on the server.
import { el, patchChildren } from "./common.js";

const $ = (id) => document.getElementById(id);
let catalog = null;
const changed = new Set(); // the options the person touched since the game was chosen

function showBanner(text) {
  $("banner").querySelector(".msg").textContent = text;
  $("banner").hidden = false;
}

const tokenOf = (table) => localStorage.getItem(`oakwood-token-${table}`);

// ------------------------------------------------------------------ the tables and the history
async function refreshTables() {
  try {
    const response = await fetch("/api/tables");
    const { tables, history } = await response.json();
    drawTables(tables);
    drawHistory(history || []);
  } catch {
    /* the next refresh tries again */
  }
}

const STATUS_WORDS = { waiting: "waiting for players", paused: "paused", playing: "playing" };

function drawTables(tables) {
  const list = el("ul");
  if (!tables.length) list.append(el("li", { class: "hint" }, "No tables yet: start one."));
  for (const table of tables) {
    const mine = tokenOf(table.id) !== null;
    const free = table.seats.some((s) => s.kind === "human" && s.name === null);
    const who = table.seats.map((s) => s.name || (s.kind === "bot" ? `bot (${s.level})` : "free seat")).join(", ");
    const links = el("div", { class: "links" });
    if (mine) links.append(el("a", { href: `/t/${table.id}`, class: "join" }, "Resume"));
    else if (table.status === "waiting" && free) links.append(el("a", { href: `/t/${table.id}`, class: "join" }, "Join"));
    links.append(el("a", { href: `/t/${table.id}`, class: "watch" }, "Watch"));
    if (mine && table.status === "paused") {
      links.append(el("button", { type: "button", class: "abandon", onclick: () => abandon(table) }, "Abandon"));
    }
    const paused = table.status === "paused" && mine ? " · nobody is playing: resume it, or abandon it" : "";
    list.append(el("li", { class: "table-item", dataset: { table: table.id, key: table.id } },
      el("strong", {}, `${table.title} · ${table.players === 1 ? "solo" : `${table.players} players`}`,
        el("span", { class: `badge ${table.status}` }, STATUS_WORDS[table.status] || table.status)),
      links,
      el("span", { class: "who" }, who, table.turn_seconds ? ` · ${table.turn_seconds} s a move` : "",
        ` · started ${when(table.created_at)}`, paused)));
  }
  patchChildren($("tables"), list);
}

function when(iso) {
  if (!iso) return "";
  const moment = new Date(iso);
  const today = new Date().toDateString() === moment.toDateString();
  const time = moment.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  return today ? `today at ${time}` : `${moment.toLocaleDateString([], { day: "numeric", month: "short", year: "numeric" })} at ${time}`;
}

function drawHistory(history) {
  const list = el("ul");
  if (!history.length) list.append(el("li", { class: "hint" }, "No game has ended yet."));
  for (const game of history) {
    const winners = (game.winners || []).map((s) => game.names[s]);
    const outcome = game.status === "abandoned" ? `abandoned by ${game.abandoned_by || "its players"}`
      : winners.length ? `${winners.join(" and ")} ${winners.length > 1 ? "share the win" : "won"}`
        : game.players === 1 ? "not won" : "nobody won";
    const scores = game.scores ? game.names.map((name, s) => `${name} ${formatScore(game.scores[s])}`).join(" · ") : "";
    list.append(el("li", { class: `table-item ended ${game.status}`, dataset: { key: `game-${game.game_id}`, game: String(game.game_id) } },
      el("strong", {}, `${game.title} · ${game.players === 1 ? "solo" : `${game.players} players`}`,
        el("span", { class: "badge" }, outcome)),
      el("div", { class: "links" }, el("a", { href: `/replay/${game.game_id}`, class: "replay" }, "Replay")),
      el("span", { class: "who" }, `${when(game.ended_at)}`, scores ? ` · ${game.score_name.toLowerCase()}: ${scores}` : "")));
  }
  patchChildren($("history"), list);
}

function formatScore(score) {
  return Number.isInteger(score) ? String(score) : String(Math.round(score * 10) / 10);
}

async function abandon(table) {
  if (!confirm(`Abandon this game of ${table.title}? It ends now, and its record says you gave it up.`)) return;
  const response = await fetch(`/api/tables/${encodeURIComponent(table.id)}/abandon`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token: tokenOf(table.id) }),
  });
  const answer = await response.json();
  if (!response.ok) showBanner(answer.error ? answer.error.message : "The game could not be abandoned.");
  refreshTables();
}

// ------------------------------------------------------------------ the form
function game() { return catalog.games.find((g) => g.name === $("game").value); }

function players() { return Number($("players").value); }

function drawPlayers() {
  const g = game();
  const select = $("players");
  const before = players();
  select.replaceChildren();
  for (let n = g.min_players; n <= g.max_players; n++) {
    select.append(el("option", { value: String(n) }, n === 1 ? "1 (solo)" : String(n)));
  }
  select.value = String(before >= g.min_players && before <= g.max_players ? before : Math.max(g.min_players, Math.min(2, g.max_players)));
}

function drawSeats() {
  const box = $("seats");
  const before = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren();
  for (let i = 0; i < players(); i++) {
    const select = el("select", { id: `seat-${i}`, name: `seat-${i}` },
      el("option", { value: "human" }, i === 0 ? "You" : "A person (invite link)"),
      catalog.levels.map((level) => el("option", { value: level }, `Bot: ${level}`)));
    select.value = before[i] || (i === 0 ? "human" : "medium");
    box.append(el("label", { for: `seat-${i}` }, `Seat ${i + 1}`), select);
  }
}

/** Words for a value a person reads: "only_if_active_falls" → "only if active falls". */
const words = (value) => String(value).replaceAll("_", " ");

function drawOptions() {
  const g = game();
  changed.clear();
  const box = $("options");
  box.replaceChildren();
  for (const option of g.options) {
    const id = `option-${option.name}`;
    const control = option.editor ? countsEditor(option, id) : plainControl(option, id);
    box.append(el("label", { for: id, class: option.editor ? "top" : null }, capitaliseWords(words(option.name))), control,
      el("span", { class: "help" }, option.help, ` (default: ${words(option.default)}${option.ruling ? `; ${option.ruling}` : ""})`));
  }
  box.oninput = (event) => {
    const name = event.target.closest("[data-option]")?.dataset.option;
    if (name) changed.add(name);
  };
}

function capitaliseWords(text) { return text[0].toUpperCase() + text.slice(1); }

/** A checkbox, a select of the choices, a number box within the bounds, or a text box. */
function plainControl(option, id) {
  const data = { option: option.name, kind: option.type };
  if (option.type === "bool") {
    const box = el("input", { id, type: "checkbox", dataset: data });
    box.checked = option.default;
    return box;
  }
  if (option.choices) {
    const select = el("select", { id, dataset: data },
      option.choices.map((c) => el("option", { value: String(c) }, words(c))));
    select.value = String(option.default);
    return select;
  }
  if (option.type === "int" || option.type === "float") {
    return el("input", { id, type: "number", dataset: data, required: true, step: option.type === "float" ? "any" : "1",
      min: option.minimum, max: option.maximum, value: String(option.default) });
  }
  return el("input", { id, type: "text", dataset: data, value: String(option.default) });
}

/** A named deck, or "custom": then a count for every card kind, with the total. */
function countsEditor(option, id) {
  const editor = option.editor;
  const wrap = el("div", { class: "counts-editor", dataset: { option: option.name, kind: "counts" } });
  const select = el("select", { id, "aria-label": `${words(option.name)}: a named deck or your own` },
    Object.entries(editor.presets).map(([name, counts]) =>
      el("option", { value: name }, `${words(name)} (${total(counts)} cards)`)),
    el("option", { value: "" }, "custom counts…"));
  select.value = String(option.default) in editor.presets ? String(option.default) : "";
  const grid = el("div", { class: "counts", hidden: true });
  const sum = el("p", { class: "help counts-total", "aria-live": "polite" });
  const start = editor.presets[select.value] || Object.values(editor.presets)[0];
  for (const item of editor.items) {
    // An item may bound its own count (a Barrell card is unique: 0 or 1); else 0 to the deck's size.
    const input = el("input", { type: "number", min: item.min ?? 0, max: item.max ?? editor.max_total, step: 1, value: String(start[item.code] || 0),
      id: `${id}-${item.code}`, dataset: { code: item.code } });
    grid.append(el("label", { for: `${id}-${item.code}`, class: `count ${item.group}` }, el("span", {}, item.name), input));
  }
  const update = () => {
    const custom = select.value === "";
    grid.hidden = !custom;
    if (!custom) {
      const preset = editor.presets[select.value];
      grid.querySelectorAll("input").forEach((input) => { input.value = String(preset[input.dataset.code] || 0); });
    }
    const n = [...grid.querySelectorAll("input")].reduce((acc, input) => acc + (Number(input.value) || 0), 0);
    sum.textContent = `${n} cards (a deck has ${editor.min_total} to ${editor.max_total})`;
    sum.classList.toggle("bad", n < editor.min_total || n > editor.max_total);
  };
  select.addEventListener("change", update);
  grid.addEventListener("input", update);
  wrap.append(select, grid, sum);
  readers.set(wrap, () => {
    if (select.value !== "") return select.value;
    const counts = {};
    for (const input of grid.querySelectorAll("input")) counts[input.dataset.code] = Number(input.value) || 0;
    const same = Object.entries(editor.presets).find(([, preset]) => editor.items.every((i) => (preset[i.code] || 0) === counts[i.code]));
    return same ? same[0] : JSON.stringify(counts);
  });
  update();
  return wrap;
}

/** How each counts editor reads its value: a preset's name, or the counts as JSON. */
const readers = new WeakMap();
const total = (counts) => Object.values(counts).reduce((a, b) => a + b, 0);

/** The options the person changed, as the game takes them (left alone: not sent, so the default holds). */
function options() {
  const out = {};
  const g = game();
  for (const control of $("options").querySelectorAll(":scope > [data-option]")) {
    const info = g.options.find((o) => o.name === control.dataset.option);
    if (!changed.has(info.name)) continue;
    let value;
    if (control.dataset.kind === "bool") value = control.checked;
    else if (control.dataset.kind === "counts") value = readers.get(control)();
    else if (control.dataset.kind === "int") value = parseInt(control.value, 10);
    else if (control.dataset.kind === "float") value = parseFloat(control.value);
    else value = control.value;
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

function drawGame() {
  drawPlayers();
  drawSeats();
  drawOptions();
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
  $("players").addEventListener("change", drawSeats);
  drawGame();
  $("create").addEventListener("submit", create);
  window.oakwoodLobby = { ready: true }; // for the browser tests
  refreshTables();
  setInterval(refreshTables, 4000);
}

start();
