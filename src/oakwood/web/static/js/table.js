// The table page: the connection to /ws/tables/{table}, the header, the log, the move list, the rules, errors
// and the live region. The game area is drawn by the game's own module, games/<game>.js: render(root, update, ctx).
import { capitalise, el, markdown, patchChildren, seatLabel } from "./common.js";

const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const tokenKey = `oakwood-token-${tableId}`;
const FOUR_COLOUR_KEY = "oakwood-four-colour";
const SUMMARY_KEY = `oakwood-summary-${tableId}`; // the last round or battle summary the player dismissed
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
  promptAt: 0, // when the page last reconnected at once after a 4010 (Date.now())
  redirect: null, // where the server sent the next connection (the address of the process holding the table)
  relay: false, // that address could not be reached: this page asks to be relayed from now on
  pingTimer: null,
  deadlineAt: null,
  countdownTimer: null,
  closedForGood: false,
  greeted: false,
  drawn: null, // what the board shows: seq, observation and moves as text (an update that changes none keeps it)
};
window.oakwood = state; // for the browser tests and curious people

// ------------------------------------------------------------------ connection
function wsUrl() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const relay = state.relay ? "?relay=1" : "";
  return `${scheme}://${location.host}/ws/tables/${encodeURIComponent(tableId)}${relay}`;
}

function setStatus(text, reconnecting = false) {
  const status = $("status");
  status.textContent = text;
  status.classList.toggle("reconnecting", reconnecting);
}

function connect() {
  clearTimeout(state.retryTimer);
  // with several server processes, the one that holds the table may have an address of its own (`moved`): the
  // next connection goes there, once; every later one starts at the page's own address again
  const sent = state.redirect;
  state.redirect = null;
  const ws = new WebSocket(sent || wsUrl());
  let heard = false; // an update came on this connection
  state.ws = ws;
  ws.addEventListener("open", () => {
    ws.send(JSON.stringify({ type: "hello", token: state.token || null }));
    clearInterval(state.pingTimer);
    state.pingTimer = setInterval(() => send({ type: "ping" }), 20000);
  });
  ws.addEventListener("message", (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch { return; }
    if (message.type === "update") { heard = true; onUpdate(message); }
    else if (message.type === "error") onError(message);
    else if (message.type === "moved" && /^wss?:\/\//.test(message.url || "")) state.redirect = message.url;
  });
  ws.addEventListener("close", (event) => {
    clearInterval(state.pingTimer);
    if (state.ws !== ws) return;
    state.ws = null;
    if (event.code === 4404 || state.closedForGood) { setStatus("this table does not exist"); return; }
    // 4010: the table moved to another server process (one was stopped or killed) and is ready there, so the
    // next try is at once (spread over a quarter second: every player of that process reconnects now), even
    // after tries that failed while the process was being replaced; anything else backs off, and so does a
    // 4010 that keeps coming (at most one prompt try every 5 s: a service briefly away also closes with it)
    // Sent to the holder's own address (`moved`), the next try is at once. A connection that was sent there and
    // got no update (the address does not answer, or a proxy sends it to another process, which sends it on
    // again) makes this page ask its own address to relay it from now on, as when no process has an address.
    if (sent && !heard && (event.code !== 4010 || state.redirect !== null)) {
      state.relay = true;
      state.redirect = null;
    }
    const now = Date.now();
    const redirected = event.code === 4010 && state.redirect !== null;
    const moved = !redirected && event.code === 4010 && now - state.promptAt > 5000;
    if (moved) state.promptAt = now;
    const delay = redirected
      ? 0
      : moved
        ? 50 + Math.random() * 200
        : Math.min(10000, 500 * 2 ** state.retries) * (0.75 + Math.random() * 0.5);
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

/** Play the legal action with codec index `index` (anything not in the latest legal list is never sent). A move
 * the game warns about (it ends a solo game below 20 points…) is played only once the player confirms it. */
async function act(index) {
  const update = state.update;
  const move = update ? update.legal.find((a) => a.index === index) : null;
  if (!move) return false;
  if (move.warning && !(await confirmMove(move))) return false;
  // the player may have taken time to confirm: the move must still be offered (its seq is the update's own)
  const now = state.update;
  const still = now && now.legal.find((a) => a.index === index);
  if (!still) return false;
  return send({ type: "act", seq: move.warning ? now.seq : update.seq, action: index });
}

function confirmMove(move) {
  const dialog = $("confirm-dialog");
  $("confirm-text").textContent = move.warning;
  $("confirm-move").textContent = capitalise(move.label);
  return new Promise((resolve) => {
    const done = (answer) => { dialog.close(); resolve(answer); };
    $("confirm-yes").onclick = () => done(true);
    $("confirm-no").onclick = () => done(false);
    dialog.oncancel = () => resolve(false);
    dialog.showModal();
    $("confirm-no").focus();
  });
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
    announce(fresh.filter((e) => update.seat === null || e.seat !== update.seat).map((e) => e.text).join(" "));
  }
  const mine = update.seat === null ? "watching" : `playing as ${seatLabel(update.table, update.seat)}`;
  setStatus(`${mine} · ${STATUS_TEXT[update.table.status] || update.table.status}`);
  drawHeader(update);
  drawLog(fresh, from === 0);
  drawMoves(update);
  drawDeadline(update.deadline);
  // an update that changes nothing on the board (someone connected) leaves it as it is
  const drawn = JSON.stringify([update.seq, update.observation, update.legal, update.table.seats.map((s) => s.name)]);
  if (drawn !== state.drawn) {
    state.drawn = drawn;
    await drawGame(update);
  }
  if (state.update !== update) return; // a newer update arrived while the board's module loaded
  drawGameOver(update);
  drawSummary(update);
}

const STATUS_TEXT = {
  waiting: "waiting for players", playing: "playing", paused: "paused: every player is away",
  finished: "finished", abandoned: "abandoned",
};

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
  // a table still waiting for its players has nobody to act yet
  const toAct = new Set(observation.terminal || table.status !== "playing" ? [] : observation.to_act || []);
  const scores = observation.scores || [];
  const strip = el("div");
  for (const seat of table.seats) {
    const presence = seat.kind === "bot" ? "bot" : seat.connected ? "online" : "away";
    const presenceText = seat.kind === "bot" ? `bot, ${seat.level}` : seat.name === null ? "free seat" : seat.connected ? "online" : "away";
    const classes = ["seat"];
    if (toAct.has(seat.seat)) classes.push("turn");
    if (seat.seat === update.seat) classes.push("you");
    const score = scores[seat.seat];
    strip.append(el("div", { class: classes.join(" "), dataset: { seat: String(seat.seat), key: `seat-${seat.seat}` } },
      el("span", { class: `dot ${presence}`, "aria-hidden": "true" }),
      el("span", { class: "seat-name" }, seatLabel(table, seat.seat)),
      el("span", { class: "seat-score", title: table.score_name || "score" }, score === undefined ? "" : formatScore(score),
        score === undefined ? null : el("span", { class: "score-label" }, (table.score_name || "score").toLowerCase())),
      el("span", { class: "seat-meta" }, presenceText,
        seat.covered ? el("span", { class: "badge covered" }, "bot playing") : null,
        toAct.has(seat.seat) ? el("span", { class: "badge turn" }, update.observation.decision === "turn" ? "to play" : "to choose") : null)));
  }
  patchChildren($("seats"), strip);
  const mySeat = update.seat === null ? null : table.seats[update.seat];
  $("covered-notice").hidden = !(mySeat && mySeat.covered);
  $("undo").hidden = !update.can_undo;
}

function formatScore(score) {
  return Number.isInteger(score) ? String(score) : String(Math.round(score * 10) / 10);
}

function drawLog(fresh, whole) {
  const log = $("log");
  // new lines are added (a line already shown never moves); the whole log is drawn again only after an undo
  if (whole) log.replaceChildren(...state.log.map((e) => el("li", {}, e.text)));
  else {
    log.querySelectorAll("li.new, li.empty").forEach((li) => (li.classList.contains("empty") ? li.remove() : li.classList.remove("new")));
    log.append(...fresh.map((e) => el("li", { class: "new" }, e.text)));
  }
  if (!state.log.length) log.append(el("li", { class: "empty" }, "Nothing has happened yet."));
  log.scrollTop = log.scrollHeight;
}

function drawMoves(update) {
  const list = el("div");
  if (!update.legal.length) {
    const status = update.table.status;
    const why = update.seat === null ? "You are watching." : update.observation.terminal ? "The game is over."
      : status === "waiting" ? "Waiting for every seat to be taken."
        : status === "paused" ? "Paused until a player comes back." : "Waiting for the other players.";
    list.append(el("p", { class: "empty" }, why));
    if (status === "waiting") {
      const link = `${location.origin}/t/${update.table.id}`;
      list.append(el("p", { class: "invite" }, "Invite a friend with this link: ",
        el("a", { href: link, class: "invite-link" }, link), " ",
        el("button", { type: "button", onclick: () => navigator.clipboard?.writeText(link) }, "Copy")));
    }
  }
  for (const action of update.legal) {
    list.append(el("button", { type: "button", class: action.warning ? "warns" : null, title: action.warning || action.notation,
      dataset: { index: String(action.index), verb: action.verb, key: `move-${action.index}` },
      onclick: () => act(action.index) }, capitalise(action.label), action.warning ? " ⚠" : ""));
  }
  patchChildren($("moves"), list);
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
  const abandoned = update.table.status === "abandoned";
  if (!obs.terminal && !abandoned) { box.hidden = true; box.replaceChildren(); return; }
  const winners = new Set(obs.winners || []);
  const order = update.table.seats.map((s) => s.seat).sort((a, b) => (obs.scores[b] ?? 0) - (obs.scores[a] ?? 0));
  const names = [...winners].map((s) => seatLabel(update.table, s));
  let verdict = names.length ? `${names.length > 1 ? "Winners" : "Winner"}: ${names.join(", ")}` : "Nobody won.";
  if (update.final && update.table.players === 1) verdict = update.final.title; // "18 points: 2 short of 20"
  if (abandoned) verdict = `Abandoned by ${update.table.abandoned_by || "its players"} before the end.`;
  const shown = update.summary && !abandoned ? summaryTable(update.summary) : null;
  const closing = update.final && update.table.players > 1 ? summaryTable(update.final) : null;
  box.replaceChildren(...[
    el("h2", {}, abandoned ? "Game abandoned" : "Game over"),
    el("p", { class: "verdict" }, verdict),
    el("ol", { class: "final-scores" }, order.map((s) => el("li", {},
      `${seatLabel(update.table, s)}: ${formatScore(obs.scores[s] ?? 0)}`, winners.has(s) ? " ★" : ""))),
    shown, closing,
    update.table.game_id !== null && update.table.game_id !== undefined
      ? el("a", { href: `/replay/${update.table.game_id}`, class: "replay-link" }, "Watch the replay") : null,
    " · ", el("a", { href: "/" }, "Back to the lobby")].filter((part) => part !== null));
  box.hidden = false;
}

// ------------------------------------------------------------------ round and battle summaries
/** A summary (docs/web.md): its title, a table of what each seat scored and why, what happened, small print. */
function summaryTable(summary) {
  const numeric = new Set(summary.numeric);
  const cell = (value, i) => {
    const td = el("td", { class: numeric.has(i) ? "num" : null });
    if (value && typeof value === "object") {
      const cards = state.module && state.module.summaryCards ? state.module.summaryCards(value.cards) : null;
      td.append(...(cards ? [el("span", { class: "row summary-cards", title: value.text }, cards, el("span", { class: "cards-text" }, value.text))]
        : [value.text]));
    } else td.append(String(value));
    return td;
  };
  return el("section", { class: "summary", dataset: { kind: summary.kind } },
    el("h3", {}, summary.title),
    el("table", {},
      el("thead", {}, el("tr", {}, summary.columns.map((c, i) => el("th", { class: numeric.has(i) ? "num" : null }, c)))),
      el("tbody", {}, summary.rows.map((row) => el("tr", { class: `${row.won ? "won" : ""}${row.seat === state.update?.seat ? " you" : ""}` },
        row.cells.map(cell))))),
    summary.lines.length ? el("ul", { class: "summary-lines" }, summary.lines.map((line) => el("li", {}, line))) : null,
    summary.notes.map((note) => el("p", { class: "hint" }, note)));
}

/** A round or battle that just ended is summed up in a dialog that stays until the player closes it (once per
 * ending: a reload does not show it again). The game's end is summed up in the game-over panel instead. */
function drawSummary(update) {
  const summary = update.summary;
  const dialog = $("summary-dialog");
  if (update.observation.terminal || update.table.status === "abandoned") {
    if (dialog.open) dialog.close(); // the game-over panel shows the last summary, beside the final scores
    return;
  }
  if (!summary) return;
  const dismissed = Number(localStorage.getItem(SUMMARY_KEY) ?? -1);
  if (summary.event_index <= dismissed || dialog.dataset.shown === String(summary.event_index)) return;
  dialog.dataset.shown = String(summary.event_index);
  $("summary-body").replaceChildren(summaryTable(summary));
  $("summary-title").textContent = summary.kind === "battle_result" ? "The battle is over" : "The round is over";
  if (!dialog.open) dialog.showModal();
  $("summary-close").focus();
}

function closeSummary() {
  const dialog = $("summary-dialog");
  if (dialog.dataset.shown) localStorage.setItem(SUMMARY_KEY, dialog.dataset.shown);
  dialog.close();
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
  $("summary-close").addEventListener("click", closeSummary);
  $("summary-dialog").addEventListener("cancel", () => localStorage.setItem(SUMMARY_KEY, $("summary-dialog").dataset.shown || "-1"));
  const four = $("four-colour");
  four.checked = localStorage.getItem(FOUR_COLOUR_KEY) === "1";
  document.body.classList.toggle("four-colour", four.checked);
  four.addEventListener("change", () => setFourColour(four.checked));
}

wire();
maybeJoin().finally(connect);
