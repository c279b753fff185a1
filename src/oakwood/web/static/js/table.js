// The table page: the connection to /ws/tables/{table}, the header, the log, the move list, the rules, errors
// and the live region. The game area is drawn by the game's own module, games/<game>.js: render(root, update, ctx).
import { capitalise, el, markdown, seatLabel } from "./common.js";

const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const tokenKey = `oakwood-token-${tableId}`;
const FOUR_COLOUR_KEY = "oakwood-four-colour";
const $ = (id) => document.getElementById(id);

const state = {
  ws: null,
  token: localStorage.getItem(tokenKey),
  update: null,
  previous: null,
  log: [],
  module: null,
  moduleGame: null,
  retries: 0,
  retryTimer: null,
  pingTimer: null,
  deadlineAt: null,
  countdownTimer: null,
  closedForGood: false,
  greeted: false,
};
window.oakwood = state; // for the browser tests and curious people

// ------------------------------------------------------------------ connection
function wsUrl() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}/ws/tables/${encodeURIComponent(tableId)}`;
}

function setStatus(text, reconnecting = false) {
  const status = $("status");
  status.textContent = text;
  status.classList.toggle("reconnecting", reconnecting);
}

function connect() {
  clearTimeout(state.retryTimer);
  const ws = new WebSocket(wsUrl());
  state.ws = ws;
  ws.addEventListener("open", () => {
    ws.send(JSON.stringify({ type: "hello", token: state.token || null }));
    clearInterval(state.pingTimer);
    state.pingTimer = setInterval(() => send({ type: "ping" }), 20000);
  });
  ws.addEventListener("message", (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch { return; }
    if (message.type === "update") onUpdate(message);
    else if (message.type === "error") onError(message);
  });
  ws.addEventListener("close", (event) => {
    clearInterval(state.pingTimer);
    if (state.ws !== ws) return;
    state.ws = null;
    if (event.code === 4404 || state.closedForGood) { setStatus("this table does not exist"); return; }
    const delay = Math.min(10000, 500 * 2 ** state.retries) * (0.75 + Math.random() * 0.5);
    state.retries += 1;
    setStatus("reconnecting…", true);
    state.retryTimer = setTimeout(connect, delay);
  });
}

function send(message) {
  if (state.ws && state.ws.readyState === WebSocket.OPEN) {
    state.ws.send(JSON.stringify(message));
    return true;
  }
  return false;
}

/** Play the legal action with codec index `index` (anything not in the latest legal list is never sent). */
function act(index) {
  const update = state.update;
  if (!update || !update.legal.some((a) => a.index === index)) return false;
  return send({ type: "act", seq: update.seq, action: index });
}

// ------------------------------------------------------------------ messages
function onError(message) {
  if (message.code === "unknown_table") { state.closedForGood = true; }
  if (message.code === "bad_token") {
    localStorage.removeItem(tokenKey); // a token of another server's table: watch instead
    state.token = null;
    showBanner("Your seat token was not recognised; you are watching as a spectator.");
    state.ws?.close();
    return;
  }
  showBanner(message.message || message.code);
}

function showBanner(text) {
  const banner = $("banner");
  banner.querySelector(".msg").textContent = text;
  banner.hidden = false;
}

async function onUpdate(update) {
  state.retries = 0;
  // a table waiting for its players refuses every move (`waiting`), so none is offered yet
  if (update.table.status === "waiting") update.legal = [];
  const first = !state.greeted;
  state.greeted = true;
  state.previous = state.update;
  state.update = update;
  // the log: the whole of it from events_from 0 (first update, after an undo), else the new lines
  const from = update.events_from ?? (update.events.length ? update.events[0].index : state.log.length);
  const fresh = [];
  if (from === 0) state.log = [];
  for (const event of update.events) {
    if (event.index < state.log.length) continue;
    state.log.push(event);
    fresh.push(event);
  }
  if (!first && from !== 0) {
    // the live region tells what the others did (a player's own moves are what they just chose)
    const own = update.seat === null ? null : `P${update.seat + 1} `;
    announce(fresh.filter((e) => own === null || !e.text.startsWith(own)).map((e) => e.text).join(" "));
  }
  const mine = update.seat === null ? "watching" : `playing as ${seatLabel(update.table, update.seat)}`;
  setStatus(`${mine} · ${update.table.status}`);
  drawHeader(update);
  drawLog(fresh);
  drawMoves(update);
  drawDeadline(update.deadline);
  drawGameOver(update);
  await drawGame(update);
}

function announce(text) {
  if (!text) return;
  const live = $("live");
  live.append(el("p", {}, text));
  while (live.childNodes.length > 5) live.firstChild.remove();
}

// ------------------------------------------------------------------ drawing the shell
function drawHeader(update) {
  const { table, observation } = update;
  $("game-title").textContent = table.title;
  document.title = `Oakwood — ${table.title}`;
  const toAct = new Set(observation.terminal ? [] : observation.to_act || []);
  const scores = observation.scores || [];
  const seats = $("seats");
  seats.replaceChildren();
  for (const seat of table.seats) {
    const presence = seat.kind === "bot" ? "bot" : seat.connected ? "online" : "away";
    const presenceText = seat.kind === "bot" ? `bot, ${seat.level}` : seat.name === null ? "free seat" : seat.connected ? "online" : "away";
    const classes = ["seat"];
    if (toAct.has(seat.seat)) classes.push("turn");
    if (seat.seat === update.seat) classes.push("you");
    const score = scores[seat.seat];
    seats.append(el("div", { class: classes.join(" "), dataset: { seat: String(seat.seat) } },
      el("span", { class: `dot ${presence}`, "aria-hidden": "true" }),
      el("span", { class: "seat-name" }, seatLabel(table, seat.seat)),
      el("span", { class: "seat-score", title: "score" }, score === undefined ? "" : formatScore(score)),
      el("span", { class: "seat-meta" }, presenceText,
        seat.covered ? el("span", { class: "badge covered" }, "bot playing") : null,
        toAct.has(seat.seat) ? el("span", { class: "badge turn" }, update.observation.decision === "turn" ? "to play" : "to choose") : null)));
  }
  const mySeat = update.seat === null ? null : table.seats[update.seat];
  $("covered-notice").hidden = !(mySeat && mySeat.covered);
  $("undo").hidden = !update.can_undo;
}

function formatScore(score) {
  return Number.isInteger(score) ? String(score) : String(Math.round(score * 10) / 10);
}

function drawLog(fresh) {
  const log = $("log");
  const freshSet = new Set(fresh.map((e) => e.index));
  log.replaceChildren(...state.log.map((e) => el("li", { class: freshSet.has(e.index) ? "new" : "" }, e.text)));
  if (!state.log.length) log.append(el("li", { class: "empty" }, "Nothing has happened yet."));
  log.scrollTop = log.scrollHeight;
}

function drawMoves(update) {
  const moves = $("moves");
  moves.replaceChildren();
  if (!update.legal.length) {
    const why = update.seat === null ? "You are watching." : update.observation.terminal ? "The game is over."
      : update.table.status === "waiting" ? "Waiting for every seat to be taken." : "Waiting for the other players.";
    moves.append(el("p", { class: "empty" }, why));
    if (update.table.status === "waiting") {
      const link = `${location.origin}/t/${update.table.id}`;
      moves.append(el("p", { class: "invite" }, "Invite a friend with this link: ",
        el("a", { href: link, class: "invite-link" }, link), " ",
        el("button", { type: "button", onclick: () => navigator.clipboard?.writeText(link) }, "Copy")));
    }
    return;
  }
  for (const action of update.legal) {
    moves.append(el("button", { type: "button", dataset: { index: String(action.index), verb: action.verb },
      title: action.notation, onclick: () => act(action.index) }, capitalise(action.label)));
  }
}

function drawDeadline(seconds) {
  clearInterval(state.countdownTimer);
  const node = $("countdown");
  if (seconds === null || seconds === undefined) { node.hidden = true; state.deadlineAt = null; return; }
  state.deadlineAt = performance.now() + seconds * 1000;
  const tick = () => {
    const left = Math.max(0, (state.deadlineAt - performance.now()) / 1000);
    node.textContent = `◷ ${left.toFixed(left < 10 ? 1 : 0)} s`;
    node.classList.toggle("urgent", left < 5);
    document.querySelectorAll("[data-countdown]").forEach((n) => { n.textContent = `${left.toFixed(1)} s`; });
    if (left <= 0) clearInterval(state.countdownTimer);
  };
  node.hidden = false;
  tick();
  state.countdownTimer = setInterval(tick, 100);
}

function drawGameOver(update) {
  const box = $("game-over");
  const obs = update.observation;
  if (!obs.terminal) { box.hidden = true; box.replaceChildren(); return; }
  const winners = new Set(obs.winners || []);
  const order = update.table.seats.map((s) => s.seat).sort((a, b) => (obs.scores[b] ?? 0) - (obs.scores[a] ?? 0));
  const names = [...winners].map((s) => seatLabel(update.table, s));
  box.replaceChildren(
    el("h2", {}, "Game over"),
    el("p", {}, names.length ? `${names.length > 1 ? "Winners" : "Winner"}: ${names.join(", ")}` : "Nobody won."),
    el("ol", { class: "final-scores" }, order.map((s) => el("li", {},
      `${seatLabel(update.table, s)}: ${formatScore(obs.scores[s] ?? 0)}`, winners.has(s) ? " ★" : ""))),
    update.table.game_id !== null && update.table.game_id !== undefined
      ? el("a", { href: `/replay/${update.table.game_id}`, class: "replay-link" }, "Watch the replay") : null,
    " · ", el("a", { href: "/" }, "Back to the lobby"));
  box.hidden = false;
}

async function drawGame(update) {
  const game = update.table.game;
  if (state.moduleGame !== game) {
    try {
      state.module = await import(`./games/${game}.js`);
      state.moduleGame = game;
    } catch (exc) {
      $("game").replaceChildren(el("p", {}, "The board could not be drawn; the moves and the log below still work."));
      showBanner(`Could not load the drawing of ${game}: ${exc}`);
      return;
    }
  }
  if (state.update !== update) return; // a newer update arrived while the module loaded
  const ctx = {
    act,
    announce,
    seatName: (seat) => seatLabel(update.table, seat),
    fourColour: document.body.classList.contains("four-colour"),
    previous: state.previous,
  };
  try {
    state.module.render($("game"), update, ctx);
  } catch (exc) {
    console.error(exc);
    $("game").replaceChildren(el("p", {}, "The board could not be drawn; the moves and the log below still work."));
  }
}

// ------------------------------------------------------------------ the rules, the join dialog, the tools
async function openRules() {
  const dialog = $("rules-dialog");
  const body = $("rules-body");
  dialog.showModal();
  const game = state.update?.table.game;
  if (!game) return;
  if (body.dataset.game === game) return;
  try {
    const response = await fetch(`/api/rules/${encodeURIComponent(game)}`);
    body.replaceChildren(markdown(await response.text()));
    body.dataset.game = game;
  } catch {
    body.textContent = "The rules could not be loaded.";
  }
}

async function maybeJoin() {
  if (state.token) return;
  let summary = null;
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}`);
    if (response.ok) summary = await response.json();
  } catch { /* the connection below reports it */ }
  if (!summary || summary.status !== "waiting" || !summary.seats.some((s) => s.kind === "human" && s.name === null)) return;
  const dialog = $("join-dialog");
  $("join-title").textContent = `Join this table of ${summary.title}`;
  const name = await new Promise((resolve) => {
    $("join-form").addEventListener("submit", (event) => {
      event.preventDefault();
      resolve($("join-name").value);
    }, { once: true });
    $("join-watch").addEventListener("click", () => resolve(null), { once: true });
    dialog.showModal();
    $("join-name").value = localStorage.getItem("oakwood-name") || "";
    $("join-name").focus();
  });
  dialog.close();
  if (name === null) return;
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/join`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name }),
  });
  const answer = await response.json();
  if (!response.ok) { showBanner(answer.error ? answer.error.message : "Could not join."); return; }
  localStorage.setItem("oakwood-name", name);
  localStorage.setItem(tokenKey, answer.token);
  state.token = answer.token;
}

function setFourColour(on) {
  document.body.classList.toggle("four-colour", on);
  localStorage.setItem(FOUR_COLOUR_KEY, on ? "1" : "0");
  if (state.update) drawGame(state.update);
}

function wire() {
  $("banner-close").addEventListener("click", () => { $("banner").hidden = true; });
  $("rules-button").addEventListener("click", openRules);
  $("rules-close").addEventListener("click", () => $("rules-dialog").close());
  $("undo").addEventListener("click", () => { if (state.update) send({ type: "undo", seq: state.update.seq }); });
  $("back").addEventListener("click", () => send({ type: "back" }));
  const four = $("four-colour");
  four.checked = localStorage.getItem(FOUR_COLOUR_KEY) === "1";
  document.body.classList.toggle("four-colour", four.checked);
  four.addEventListener("change", () => setFourColour(four.checked));
}

wire();
maybeJoin().finally(connect);
