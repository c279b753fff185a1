// Nutty Squirrels of the Oakwood Forest, drawn in the browser.
//
// export function render(root, update, ctx): draws the whole game area into `root` from the server's `update`
// message (docs/web.md) and acts through ctx.act(index). Everything drawn comes from update.observation and
// update.legal; every text from players (display names) goes in with textContent, never as HTML.
//
// The tree is drawn as a person who knows the physical game sees it: the Central Trunk in the middle, limbs
// L1-L3 to its left and L6-L4 to its right (so neighbouring limbs of the ring, which Flying Squirrel links,
// are neighbours on screen), card 1 next to the trunk. On a phone every limb grows to the right of the trunk.
// Each legal action sits on the thing it acts on: a move on the limb position, gather/lasso/spit on the acorn
// on a card, drop/pack on the cheeks, stash/unstash/convert on the nest, bury on the burrow, steal/owl/copy on
// another player's power or acorns, owl on a limb's name, buy on the market card, end/bribe in the turn bar.
// A target with one action plays it on click; with several it opens a small menu of them with their costs.
// Keyboard: the tree is one Tab stop (roving tabindex), arrow keys move between positions, Enter/Space acts.

const CSS_ID = "oakwood-nutty-css";
if (typeof document !== "undefined" && !document.getElementById(CSS_ID)) {
  const link = document.createElement("link");
  link.id = CSS_ID;
  link.rel = "stylesheet";
  link.href = new URL("../../css/nutty.css", import.meta.url).href;
  document.head.appendChild(link);
}

const SVG_NS = "http://www.w3.org/2000/svg";

// Card kinds (src/oakwood/games/nutty/cards.py): name, family, short text of what the card does.
const CARDS = {
  0: { name: "Empty leaf", family: "leaf", text: "" },
  1: { name: "1-brown leaf", family: "leaf", text: "" },
  2: { name: "2-brown leaf", family: "leaf", text: "" },
  3: { name: "3-brown leaf", family: "leaf", text: "" },
  G: { name: "Golden leaf", family: "leaf", text: "" },
  BB: { name: "Broken Branch", family: "event", text: "Fall to the trunk. 2 AP to step on. Two in a row break the limb." },
  WG: { name: "Wind Gust", family: "event", text: "Squirrels on this limb blow 2 cards outward." },
  FG: { name: "Fool's Gold", family: "event", text: "Trade one golden acorn for a brown one." },
  SF: { name: "Sappy Feet", family: "event", text: "Your next turn has 1 AP less." },
  AR: { name: "The Arborist", family: "event", text: "Reveals the limb's face-down cards." },
  SW: { name: "Swinging Squirrel", family: "power", text: "Broken Branches cost 1 AP to step on." },
  FL: { name: "Flying Squirrel", family: "power", text: "Fly to the same card of a neighbouring limb." },
  BP: { name: "Backpack", family: "power", text: "Carry a third acorn, safe from thieves." },
  LA: { name: "The Lasso", family: "power", text: "1 AP: pull an acorn from the next card in or out." },
  ST: { name: "Sticky Fingers", family: "power", text: "1 AP, once a turn: steal an acorn or a power." },
  SR: { name: "Sugar Rush", family: "power", text: "4 AP every turn." },
  SP: { name: "Spittoon", family: "power", text: "1 AP, once a turn: spit an acorn from any card to your nest." },
  DO: { name: "Doppelgänger", family: "power", text: "Copy another player's power for the rest of a turn." },
  OW: { name: "The Owl", family: "power", text: "Scare squirrels off a limb, or destroy a power." },
};
const SOLO_TEXT = {
  SW: "Cross Broken Branches (needed to step on them).",
  FL: "Move sideways to the same card of a neighbouring limb.",
  OW: "Bribe it with 3 points when revealed, or the game is lost.",
  ST: "Takes your lowest carried acorn each time you land here.",
  LA: "Pull an acorn from the next card in or out onto yours.",
  BB: "Fall to the trunk, losing what you carry. Two in a row break the limb.",
};
const POWER_CODE = {
  swinging: "SW", flying: "FL", backpack: "BP", lasso: "LA", sticky: "ST",
  sugar: "SR", spittoon: "SP", doppelganger: "DO", owl: "OW",
};
const PLACE_WORD = { cheeks: "Cheeks", backpack: "Backpack", nest: "Nest", burrow: "Burrow" };
const COLOUR = { brown: "b", golden: "g" };

// The order of the limbs on screen: three to the left of the trunk, three to the right (ring order kept).
const LEFT_LIMBS = [0, 1, 2];
const RIGHT_LIMBS = [5, 4, 3];

// Per root: the focused tree position and the open menu, kept across redraws.
const memory = new WeakMap();

/** Class names as the stylesheet writes them: every class of this module but the nutty-* ones starts with nt-,
 * so the shell's own classes (.card, .board, .zone, .chip, .acorns, .changed ...) never style the tree. */
function cls(names) {
  return names
    .split(/\s+/)
    .filter(Boolean)
    .map((name) => (name.startsWith("nutty") ? name : `nt-${name}`))
    .join(" ");
}

/** A DOM element with a class and optional text (always textContent). */
function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = cls(className);
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function posName(limb, pos) {
  return `L${limb + 1}c${pos + 1}`;
}

function parsePlace(text) {
  const m = /^L(\d)c(\d)$/.exec(text || "");
  return m ? [Number(m[1]) - 1, Number(m[2]) - 1] : null;
}

function playerName(ctx, seat) {
  let name = null;
  try {
    name = ctx && ctx.seatName ? ctx.seatName(seat) : null;
  } catch (e) {
    name = null;
  }
  return name || `Player ${seat + 1}`;
}

/** Where an action is drawn: the key of the element it sits on. */
export function targetOf(item, obs) {
  const words = item.notation.split(" ");
  const verb = item.verb;
  const me = obs.current ?? 0;
  const board = obs.boards[me];
  const payAt = item.notation.indexOf(" with ");
  const head = payAt >= 0 ? item.notation.slice(0, payAt) : item.notation;
  const hw = head.split(" ");
  switch (verb) {
    case "end":
    case "end game":
    case "bribe":
      return "turn";
    case "move":
      return hw[1] === "trunk" ? "trunk" : `pos:${hw[1]}`;
    case "flip":
    case "claim":
      return board.at === "trunk" ? "trunk" : `pos:${board.at}`;
    case "gather":
      return `acorn:${board.at}:${COLOUR[words[1]]}`;
    case "drop":
    case "pack":
      return `board:${me}:cheeks`;
    case "unpack":
      return `board:${me}:backpack`;
    case "stash":
    case "unstash":
    case "convert":
      return `board:${me}:nest`;
    case "bury":
      return `board:${me}:burrow`;
    case "exchange":
      return `board:${me}:${words[1]}`;
    case "lasso":
    case "spit":
      return `acorn:${words[1]}:${COLOUR[words[2]]}`;
    case "steal": {
      const victim = Number(words[1].slice(1)) - 1;
      if (COLOUR[words[2]]) return `board:${victim}:${board.at === "trunk" ? "nest" : "cheeks"}`;
      return `board:${victim}:power:${POWER_CODE[words[2]]}`;
    }
    case "loot":
      return `board:${Number(words[1].slice(1)) - 1}:sticky`;
    case "owl":
      if (words[1].startsWith("p")) return `board:${Number(words[1].slice(1)) - 1}:power:${POWER_CODE[words[2]]}`;
      return `limb:${words[1]}`;
    case "copy": {
      const code = POWER_CODE[words[1]];
      const holder = obs.boards.findIndex((b, s) => s !== me && b.powers.includes(code));
      return holder >= 0 ? `board:${holder}:power:${code}` : "turn";
    }
    case "buy":
      return `market:${POWER_CODE[hw[1]]}`;
    default:
      return "turn";
  }
}

/** What an action costs in this position, as describe_move says it (render.py): AP, or points in solo. */
export function costOf(item, obs) {
  const verb = item.verb;
  if (verb === "end" || verb === "end game") return "";
  const solo = obs.mode === "solo";
  const paid = item.notation.includes(" with ");
  if (solo) {
    if (verb === "buy" || verb === "bribe") return paid ? "3 points, paid as named" : "3 points";
    if (verb !== "move") return "free";
    const to = item.notation.split(" ")[1];
    if (to === "trunk") return "free (inward)";
    const [limb, pos] = parsePlace(to);
    const here = parsePlace(obs.boards[0].at);
    if (here && limb === here[0] && pos < here[1]) return "free (inward)";
    if (here && limb !== here[0]) return "free (sideways)";
    const card = obs.tree[limb][pos];
    if (card.card === null) return "free (flips it)";
    return paid ? "1 point, paid as named" : "1 point";
  }
  if (verb === "move") {
    const to = item.notation.split(" ")[1];
    const place = parsePlace(to);
    const board = obs.boards[obs.current];
    if (place && obs.tree[place[0]][place[1]].card === "BB" && !board.powers.includes("SW")) return "2 AP";
    return "1 AP";
  }
  const one = ["flip", "convert", "bury", "steal", "loot", "lasso", "spit"];
  return one.includes(verb) ? "1 AP" : "0 AP";
}

function actionText(item, obs) {
  const cost = costOf(item, obs);
  const label = item.label || item.notation;
  return cost ? `${label} · ${cost}` : label;
}

// ------------------------------------------------------------------ drawing helpers

function acornIcon(colour) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 20 24");
  svg.setAttribute("class", `nt-acorn-icon nt-acorn-${colour}`);
  svg.setAttribute("aria-hidden", "true");
  const nut = document.createElementNS(SVG_NS, "path");
  nut.setAttribute("d", "M3 10 Q3 21 10 23 Q17 21 17 10 Z");
  nut.setAttribute("class", "nt-nut");
  const cap = document.createElementNS(SVG_NS, "path");
  cap.setAttribute("d", "M1.5 10.5 Q2 4 10 4 Q18 4 18.5 10.5 Z");
  cap.setAttribute("class", "nt-cap");
  const stem = document.createElementNS(SVG_NS, "path");
  stem.setAttribute("d", "M10 4 L11 1");
  stem.setAttribute("class", "nt-stem");
  svg.append(nut, cap, stem);
  if (colour === "golden") {
    const star = document.createElementNS(SVG_NS, "text");
    star.setAttribute("x", "10");
    star.setAttribute("y", "19.5");
    star.setAttribute("text-anchor", "middle");
    star.setAttribute("class", "nt-mark");
    star.textContent = "★";
    svg.append(star);
  }
  return svg;
}

/** Acorns as icons with a count: colour plus the ★ on golden ones and the text for screen readers. */
function acornGroup(brown, golden, className = "") {
  const wrap = el("span", `acorns ${className}`.trim());
  for (const [colour, n] of [["brown", brown], ["golden", golden]]) {
    if (!n) continue;
    const one = el("span", `acorn acorn-${colour}`);
    one.dataset.colour = colour;
    one.append(acornIcon(colour));
    if (n > 1) one.append(el("span", "count", `×${n}`));
    one.setAttribute("title", `${n} ${colour} acorn${n === 1 ? "" : "s"}`);
    wrap.append(one);
  }
  return wrap;
}

function acornWords(brown, golden) {
  const parts = [];
  if (brown) parts.push(`${brown} brown`);
  if (golden) parts.push(`${golden} golden`);
  return parts.length ? `${parts.join(" and ")} acorn${brown + golden === 1 ? "" : "s"}` : "no acorns";
}

function squirrelToken(seat, ctx, mine) {
  const token = el("span", `squirrel seat-${seat}${mine ? " mine" : ""}`);
  token.dataset.seat = String(seat);
  token.append(el("span", "squirrel-num", String(seat + 1)));
  token.setAttribute("title", `P${seat + 1} ${playerName(ctx, seat)}`);
  return token;
}

function cardFace(kind, solo) {
  const info = CARDS[kind] || { name: kind, family: "event", text: "" };
  const face = el("span", `face family-${info.family}`);
  face.append(el("span", "card-name", info.name));
  const text = (solo && SOLO_TEXT[kind]) || info.text;
  if (text) face.append(el("span", "card-text", text));
  return face;
}

// ------------------------------------------------------------------ the render

export function render(root, update, ctx = {}) {
  const obs = update.observation;
  const legal = update.legal || [];
  const prevObs = ctx.previous && ctx.previous.observation ? ctx.previous.observation : null;
  const solo = obs.mode === "solo";
  const me = update.seat;
  const state = memory.get(root) || { focus: "trunk" };
  memory.set(root, state);
  // What had the keyboard focus (a position, a board part, a button; inside a menu: what opened it) gets it back.
  let focused = root.contains(document.activeElement) ? document.activeElement : null;
  if (focused && focused.closest(".nutty-menu")) focused = focused.closest(".nutty-menu")._owner || null;
  const refocus = focused
    ? (focused.classList.contains("nt-pos") && `.nt-pos[data-key="${focused.dataset.key}"]`)
      || (focused.dataset.target && `[data-target="${focused.dataset.target}"]`)
      || (focused.classList.contains("nt-turn-button") && ".nt-turn-button")
    : null;

  // Legal actions by the key of the thing they act on.
  const byTarget = new Map();
  for (const item of legal) {
    const key = targetOf(item, obs);
    if (!byTarget.has(key)) byTarget.set(key, []);
    byTarget.get(key).push(item);
  }

  const act = (item) => {
    closeMenu(root);
    if (ctx.act) ctx.act(item.index);
  };

  /** Make `node` act for `key`'s actions: one plays at once, several open a menu. */
  const wire = (node, key, { focusable = true } = {}) => {
    const items = byTarget.get(key);
    node.dataset.target = key;
    if (!items || !items.length) return false;
    node.classList.add("nt-actionable");
    node.dataset.actions = String(items.length);
    if (focusable && !node.hasAttribute("tabindex")) node.tabIndex = 0;
    const summary = items.map((i) => actionText(i, obs)).join("; ");
    const before = node.getAttribute("title");
    node.setAttribute("title", before ? `${before}\n${summary}` : summary);
    // A place one can move to says what the step costs (AP, or points in solo) right on it.
    const move = (key === "trunk" || key.startsWith("pos:")) && items.find((i) => i.verb === "move" && !i.notation.includes(" with "));
    if (move) {
      const cost = costOf(move, obs);
      const short = cost.startsWith("free") ? "free" : cost.replace(", paid as named", "").replace(" point", " pt");
      const badge = el("span", "cost", short);
      badge.setAttribute("aria-hidden", "true");
      node.append(badge);
    }
    node.addEventListener("click", (event) => {
      event.stopPropagation();
      choose(root, node, items, obs, act);
    });
    if (focusable) {
      // Board parts, powers, market cards and limb names are not buttons: Enter and Space act on them too.
      node.addEventListener("keydown", (event) => {
        if (event.key !== "Enter" && event.key !== " ") return;
        event.preventDefault();
        event.stopPropagation();
        choose(root, node, items, obs, act);
      });
    }
    return true;
  };

  root.textContent = "";
  root.classList.add("nutty-root");
  root.dataset.seq = String(update.seq ?? ""); // which update is drawn (tests and bug reports read it)
  const game = el("div", `nutty ${solo ? "solo" : "multi"}${obs.terminal ? " over" : ""}`);
  root.append(game);

  game.append(drawTurnBar(obs, update, ctx, byTarget, act));

  const main = el("div", "nutty-main");
  game.append(main);
  const treeBox = drawTree(obs, prevObs, me, ctx, wire, byTarget, act, root, state);
  main.append(treeBox);

  const side = el("div", "nutty-side");
  main.append(side);
  side.append(drawStock(obs, prevObs, wire));
  if (solo) side.append(drawMarket(obs, wire));
  const boards = el("div", `nutty-boards${obs.boards.length >= 4 ? " many" : ""}`);
  boards.setAttribute("aria-label", "Squirrel boards");
  const order = obs.boards.map((_, s) => s);
  if (me !== null && me !== undefined) order.sort((a, b) => (a === me ? -1 : b === me ? 1 : a - b));
  for (const seat of order) boards.append(drawBoard(obs, prevObs, seat, me, ctx, wire));
  side.append(boards);

  // Clicks outside a menu close it.
  game.addEventListener("click", () => closeMenu(root));
  game.addEventListener("keydown", (event) => {
    if (event.key === "Escape") closeMenu(root, true);
  });

  slideSquirrels(root, state);

  if (refocus) {
    const again = root.querySelector(refocus) || root.querySelector(`.nt-pos[data-key="${state.focus}"]`);
    if (again && again.tabIndex >= 0) again.focus({ preventScroll: true });
    else if (again && again.classList.contains("nt-pos")) {
      again.tabIndex = 0;
      again.focus({ preventScroll: true });
    }
  }
}

/** Squirrels glide from where they were drawn last to where they are now, so a person can follow a move. */
function slideSquirrels(root, state) {
  const now = new Map();
  for (const token of root.querySelectorAll(".nutty-tree .nt-squirrel")) {
    const r = token.getBoundingClientRect();
    now.set(token.dataset.seat, { token, x: r.left, y: r.top });
  }
  const before = state.squirrels;
  state.squirrels = new Map([...now].map(([seat, { x, y }]) => [seat, { x, y }]));
  const still = typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
  if (!before || still) return;
  for (const [seat, { token, x, y }] of now) {
    const old = before.get(seat);
    if (!old || (Math.abs(old.x - x) < 2 && Math.abs(old.y - y) < 2) || !token.animate) continue;
    token.animate(
      [{ transform: `translate(${old.x - x}px, ${old.y - y}px) scale(1.25)` }, { transform: "none" }],
      { duration: 500, easing: "cubic-bezier(.3,.7,.4,1)" },
    );
  }
}

/** The newest thing that happened, in the game's own words (the log keeps the rest). */
function lastEvent(update) {
  const events = (update.events || []).filter((e) => e.kind !== "turn" && e.text);
  return events.length ? events[events.length - 1].text : "";
}

function drawTurnBar(obs, update, ctx, byTarget, act) {
  const bar = el("div", "nutty-turn");
  bar.setAttribute("role", "group");
  bar.setAttribute("aria-label", "Turn");
  const solo = obs.mode === "solo";
  const info = el("div", "turn-info");
  bar.append(info);
  if (obs.terminal) {
    info.append(el("span", "turn-title", gameOverText(obs, ctx)));
  } else if (solo) {
    info.append(el("span", "turn-title", "Solo game"));
    const points = obs.boards[0].points;
    info.append(el("span", "chip points-chip", `${points} / 20 points`));
    info.append(el("span", "chip wealth-chip", `Wealth ${obs.wealth} (cheeks, backpack, nest)`));
    info.append(el("span", "chip", `Decisions ${obs.actions_taken}`));
  } else {
    const cur = obs.current;
    const who = squirrelToken(cur, ctx, cur === update.seat);
    const title = el("span", "turn-title");
    title.append(who, document.createTextNode(
      cur === update.seat ? " Your turn" : ` ${playerName(ctx, cur)} is playing`,
    ));
    info.append(title);
    info.append(el("span", "chip", `Round ${obs.round}`));
    const ap = el("span", "chip ap-chip");
    ap.dataset.ap = String(obs.ap);
    ap.setAttribute("aria-label", `${obs.ap} action points left`);
    const pips = el("span", "pips");
    const board = obs.boards[cur];
    const sugar = board.powers.includes("SR") || obs.copy === "SR" ? 1 : 0;
    const total = Math.max(obs.ap, 3 + sugar - board.sappy_now);
    for (let i = 0; i < total; i += 1) pips.append(el("span", i < obs.ap ? "pip on" : "pip"));
    ap.append(el("span", "ap-num", `${obs.ap} AP`), pips);
    info.append(ap);
    if (obs.turns_left >= 0) {
      info.append(el("span", "chip warn", `Last turns: this one and ${obs.turns_left} more`));
    } else if (obs.end_triggered) {
      info.append(el("span", "chip warn", "The end is triggered"));
    }
    if (obs.copy) {
      const spent = obs.copy_spent ? " (used up)" : "";
      info.append(el("span", "chip", `Doppelgänger copies ${CARDS[obs.copy].name}${spent}`));
    }
  }
  if (obs.phase === "fools") info.append(el("span", "chip warn", "Fool's Gold: pick the golden acorn to give back"));
  if (obs.phase === "bribe") info.append(el("span", "chip warn", "The Owl must be bribed with 3 points"));
  const buttons = el("div", "turn-actions");
  for (const item of byTarget.get("turn") || []) {
    const b = el("button", `turn-button verb-${item.verb.replace(" ", "-")}`, buttonText(item, obs));
    b.type = "button";
    b.dataset.index = String(item.index);
    b.setAttribute("title", actionText(item, obs));
    b.addEventListener("click", (event) => {
      event.stopPropagation();
      act(item);
    });
    buttons.append(b);
  }
  bar.append(buttons);
  const last = lastEvent(update);
  if (last) bar.append(el("div", "nutty-last", last));
  return bar;
}

function buttonText(item, obs) {
  if (item.verb === "end") return "End turn";
  if (item.verb === "end game") return "End the game";
  const cost = costOf(item, obs);
  return cost ? `${item.notation} (${cost})` : item.notation;
}

function gameOverText(obs, ctx) {
  if (obs.mode === "solo") {
    const points = obs.boards[0].points;
    if (obs.result === "won") return `You won with ${points} points!`;
    if (obs.result === "lost") return `Lost: the Owl could not be bribed (${points} points).`;
    return `Game over: ${points} points.`;
  }
  const winners = obs.winners || [];
  if (!winners.length) return "Game over.";
  const names = winners.map((s) => playerName(ctx, s));
  return winners.length === 1 ? `Game over — ${names[0]} wins!` : `Game over — ${names.join(" and ")} share the win.`;
}

// ------------------------------------------------------------------ the tree

function drawTree(obs, prevObs, me, ctx, wire, byTarget, act, root, state) {
  const box = el("div", "nutty-tree-box");
  const tree = el("div", "nutty-tree");
  tree.setAttribute("role", "group");
  tree.setAttribute("aria-label", "The oak tree: the Central Trunk and six limbs. Arrow keys move between positions.");
  box.append(tree);

  const positions = [];
  const left = el("div", "limbs left");
  const right = el("div", "limbs right");
  const trunk = drawTrunk(obs, prevObs, me, ctx, wire);
  positions.push(trunk);
  for (const limb of LEFT_LIMBS) left.append(drawLimb(obs, prevObs, limb, "left", me, ctx, wire, positions));
  for (const limb of RIGHT_LIMBS) right.append(drawLimb(obs, prevObs, limb, "right", me, ctx, wire, positions));
  tree.append(left, trunk, right);

  // Roving tabindex: one Tab stop, the remembered position (or the trunk).
  let current = positions.find((p) => p.dataset.key === state.focus) || trunk;
  if (!positions.some((p) => p.dataset.key === state.focus)) {
    current = positions.find((p) => p.classList.contains("nt-actionable")) || trunk;
  }
  for (const p of positions) p.tabIndex = p === current ? 0 : -1;
  tree.addEventListener("focusin", (event) => {
    const pos = event.target.closest(".nt-pos");
    if (!pos) return;
    state.focus = pos.dataset.key;
    for (const p of positions) p.tabIndex = p === pos ? 0 : -1;
  });
  tree.addEventListener("keydown", (event) => {
    const pos = event.target.closest(".nt-pos");
    if (!pos || event.target !== pos) return;
    const dir = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[event.key];
    if (dir) {
      event.preventDefault();
      const next = nearest(pos, positions, dir);
      if (next) next.focus();
    } else if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      (event.key === "Home" ? trunk : positions[positions.length - 1]).focus();
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      const items = positionActions(pos, byTarget);
      if (items.length) choose(root, pos, items, obs, act);
    }
  });
  // A click on a card that offers nothing itself offers what its acorns offer (gather, lasso, spit).
  tree.addEventListener("click", (event) => {
    const pos = event.target.closest(".nt-pos");
    if (!pos || pos.classList.contains("nt-actionable")) return;
    const items = positionActions(pos, byTarget);
    if (items.length) {
      event.stopPropagation();
      choose(root, pos, items, obs, act);
    }
  });
  return box;
}

/** The tree position next to `from` in direction `dir` on screen (spatial navigation: works in every layout). */
function nearest(from, positions, dir) {
  const a = from.getBoundingClientRect();
  const ax = a.left + a.width / 2;
  const ay = a.top + a.height / 2;
  let best = null;
  let bestScore = Infinity;
  for (const p of positions) {
    if (p === from) continue;
    const b = p.getBoundingClientRect();
    const dx = b.left + b.width / 2 - ax;
    const dy = b.top + b.height / 2 - ay;
    const along = dx * dir[0] + dy * dir[1];
    if (along <= 4) continue;
    const across = Math.abs(dx * dir[1]) + Math.abs(dy * dir[0]);
    const score = along + across * 2.5;
    if (score < bestScore) {
      bestScore = score;
      best = p;
    }
  }
  return best;
}

/** Everything a position offers to the keyboard: its own actions, then those on its acorns. */
function positionActions(pos, byTarget) {
  const key = pos.dataset.key;
  const items = [...(byTarget.get(key === "trunk" ? "trunk" : `pos:${key}`) || [])];
  if (key !== "trunk") {
    for (const colour of ["b", "g"]) items.push(...(byTarget.get(`acorn:${key}:${colour}`) || []));
  }
  return items;
}

function drawTrunk(obs, prevObs, me, ctx, wire) {
  const trunk = el("div", "pos trunk");
  trunk.dataset.key = "trunk";
  trunk.setAttribute("role", "button");
  trunk.append(el("span", "trunk-name", "Central Trunk"));
  const nest = el("span", "squirrels");
  const here = obs.boards.map((b, s) => (b.at === "trunk" ? s : -1)).filter((s) => s >= 0);
  for (const s of here) nest.append(squirrelToken(s, ctx, s === me));
  trunk.append(nest);
  const names = here.map((s) => `P${s + 1}`).join(", ") || "nobody";
  trunk.setAttribute("aria-label", `Central Trunk: ${names}`);
  if (prevObs && prevObs.boards.some((b, s) => (b.at === "trunk") !== (obs.boards[s].at === "trunk"))) {
    trunk.classList.add("nt-changed");
  }
  wire(trunk, "trunk", { focusable: false });
  return trunk;
}

function drawLimb(obs, prevObs, limb, side, me, ctx, wire, positions) {
  const row = el("div", `limb limb-${limb + 1} ${side}`);
  const cards = obs.tree[limb] || [];
  const name = el("span", "limb-name", `L${limb + 1}`);
  name.setAttribute("aria-label", `Limb L${limb + 1}`);
  wire(name, `limb:L${limb + 1}`);
  const track = el("div", "limb-cards");
  track.style.setProperty("--cards", String(cards.length));
  row.append(name, track);
  if (!cards.length) track.append(el("span", "fallen", "fallen limb"));
  for (let pos = 0; pos < 5; pos += 1) {
    if (pos >= cards.length) {
      const gap = el("div", "pos-gap");
      gap.setAttribute("aria-hidden", "true");
      track.append(gap);
      continue;
    }
    const node = drawCard(obs, prevObs, limb, pos, me, ctx, wire);
    positions.push(node);
    track.append(node);
  }
  return row;
}

function drawCard(obs, prevObs, limb, pos, me, ctx, wire) {
  const card = obs.tree[limb][pos];
  const key = posName(limb, pos);
  const node = el("div", "pos card");
  node.dataset.key = key;
  node.setAttribute("role", "button");
  const faceUp = card.card !== null;
  node.classList.add(faceUp ? "nt-up" : "nt-down");
  if (faceUp) {
    node.dataset.kind = card.card;
    node.append(cardFace(card.card, obs.mode === "solo"));
  } else {
    node.append(el("span", "back"));
  }
  node.append(el("span", "pos-name", key));
  const acorns = acornGroup(card.brown, card.golden, "on-card");
  for (const one of acorns.querySelectorAll(".nt-acorn")) {
    wire(one, `acorn:${key}:${COLOUR[one.dataset.colour]}`, { focusable: false });
  }
  node.append(acorns);
  if (card.squirrels.length) {
    const sq = el("span", "squirrels");
    for (const s of card.squirrels) sq.append(squirrelToken(s, ctx, s === me));
    node.append(sq);
  }
  const info = faceUp ? CARDS[card.card] || { name: card.card, text: "" } : null;
  const text = info ? (obs.mode === "solo" && SOLO_TEXT[card.card]) || info.text : "";
  const what = info ? `${info.name}${text ? ` (${text})` : ""}` : "face down";
  if (info) node.setAttribute("title", `${info.name}${text ? `: ${text}` : ""}`); // the whole text (clamped on the card)
  const who = card.squirrels.map((s) => `P${s + 1}`).join(", ");
  node.setAttribute(
    "aria-label",
    `${key}, ${what}, ${acornWords(card.brown, card.golden)}${who ? `, squirrels ${who}` : ""}`,
  );
  if (prevObs) {
    const before = prevObs.tree[limb] && prevObs.tree[limb][pos];
    if (!before || before.card !== card.card || before.brown !== card.brown || before.golden !== card.golden
      || before.squirrels.join() !== card.squirrels.join()) {
      node.classList.add("nt-changed");
    }
  }
  wire(node, `pos:${key}`, { focusable: false });
  if (!node.classList.contains("nt-actionable") && node.querySelector(".nt-acorn.nt-actionable")) {
    node.classList.add("nt-has-acorn-actions");
  }
  return node;
}

// ------------------------------------------------------------------ the stock: Leaf Deck, supply, out of play, market

function drawStock(obs, prevObs, wire) {
  const box = el("section", "nutty-stock");
  box.setAttribute("aria-label", "Leaf Deck and supply");
  const deck = el("div", "deck");
  const pile = el("span", "deck-pile");
  const depth = Math.min(4, Math.ceil(obs.deck / 6));
  for (let i = 0; i < depth; i += 1) pile.append(el("span", "back"));
  deck.append(pile);
  if (!obs.deck) pile.append(el("span", "pile-empty", "empty"));
  const deckText = el("span", "deck-text");
  const down = obs.tree.reduce((n, row) => n + row.filter((c) => c.card === null).length, 0);
  deckText.append(el("strong", "", obs.deck ? `Leaf Deck: ${obs.deck}` : "Leaf Deck: empty"));
  deckText.append(el("span", "", "cards to refill the limbs"));
  deckText.append(el("span", "deck-down", `${down} ${down === 1 ? "card" : "cards"} face down on the tree`));
  deck.append(deckText);
  if (prevObs && prevObs.deck !== obs.deck) deck.classList.add("nt-changed");
  box.append(deck);

  const supply = el("div", "supply");
  supply.append(el("span", "label", "Supply"));
  supply.append(acornGroup(obs.supply.brown, obs.supply.golden, "big"));
  supply.setAttribute("aria-label", `Supply: ${acornWords(obs.supply.brown, obs.supply.golden)}`);
  box.append(supply);

  const out = obs.out_of_play;
  const gone = el("div", "out");
  gone.append(el("span", "label", "Out of play"));
  const list = el("span", "out-cards");
  const counts = new Map();
  for (const kind of out.cards) counts.set(kind, (counts.get(kind) || 0) + 1);
  for (const [kind, n] of counts) {
    const info = CARDS[kind] || { name: kind, family: "event" };
    list.append(el("span", `mini family-${info.family}`, n > 1 ? `${info.name} ×${n}` : info.name));
  }
  if (out.face_down) list.append(el("span", "mini unseen", `${out.face_down} unseen`));
  if (!counts.size && !out.face_down) list.append(el("span", "none", "nothing yet"));
  gone.append(list);
  box.append(gone);

  return box;
}

/** The solo market: the four powers for sale at 3 points each (buy on the card). */
function drawMarket(obs, wire) {
  const box = el("section", "nutty-market");
  box.setAttribute("aria-label", "Market");
  box.append(el("span", "label", "Market · 3 points each"));
  const cards = el("div", "market-cards");
  for (const kind of obs.market) {
    const card = el("div", "market-card card up");
    card.dataset.kind = kind;
    card.append(cardFace(kind, true));
    card.setAttribute("aria-label", `Market: ${CARDS[kind].name}, 3 points`);
    wire(card, `market:${kind}`);
    if (card.classList.contains("nt-actionable")) card.setAttribute("role", "button");
    cards.append(card);
  }
  if (!obs.market.length) cards.append(el("span", "none", "sold out"));
  box.append(cards);
  return box;
}

// ------------------------------------------------------------------ squirrel boards

function drawBoard(obs, prevObs, seat, me, ctx, wire) {
  const board = obs.boards[seat];
  const before = prevObs ? prevObs.boards[seat] : null;
  const active = obs.to_act.includes(seat);
  const box = el("section", `board seat-${seat}${seat === me ? " mine" : ""}${active ? " active" : ""}`);
  box.setAttribute("aria-label", `P${seat + 1} ${playerName(ctx, seat)}'s board`);
  const head = el("div", "board-head");
  head.append(squirrelToken(seat, ctx, seat === me));
  const name = el("span", "board-name", playerName(ctx, seat));
  head.append(name);
  if (seat === me) head.append(el("span", "you", "you"));
  if (obs.terminal && (obs.winners || []).includes(seat)) head.append(el("span", "winner", "winner"));
  head.append(el("span", "board-at", board.at === "trunk" ? "on the trunk" : `at ${board.at}`));
  const score = el("span", "board-points", `${board.points} pt${board.points === 1 ? "" : "s"}`);
  score.setAttribute("aria-label", `${board.points} points`);
  head.append(score);
  if (before && before.points !== board.points) score.classList.add("nt-changed");
  box.append(head);

  const zones = el("div", "zones");
  const zone = (part, title, brown, golden, extra) => {
    const z = el("div", `zone zone-${part}`);
    z.append(el("span", "zone-name", title));
    z.append(acornGroup(brown, golden));
    if (!brown && !golden) z.append(el("span", "empty", "–"));
    if (extra) z.append(extra);
    z.setAttribute("aria-label", `${title}: ${acornWords(brown, golden)}`);
    if (before) {
      const old = part === "backpack" ? before.backpack : before[part];
      const now = part === "backpack" ? board.backpack : board[part];
      if (JSON.stringify(old) !== JSON.stringify(now)) z.classList.add("nt-changed");
    }
    if (wire(z, `board:${seat}:${part}`)) z.setAttribute("role", "button");
    zones.append(z);
    return z;
  };
  zone("cheeks", "Cheeks", board.cheeks.brown, board.cheeks.golden);
  if (board.powers.includes("BP") || board.backpack) {
    zone("backpack", "Backpack", board.backpack === "brown" ? 1 : 0, board.backpack === "golden" ? 1 : 0);
  }
  zone("nest", "Nest", board.nest.brown, board.nest.golden);
  zone("burrow", "Burrow", board.burrow.brown, board.burrow.golden);
  if (board.powers.includes("ST") || board.sticky.brown || board.sticky.golden) {
    zone("sticky", "Sticky", board.sticky.brown, board.sticky.golden);
  }
  box.append(zones);

  const powers = el("div", "powers");
  if (!board.powers.length) powers.append(el("span", "none", "no powers"));
  for (const code of board.powers) {
    const chip = el("span", `power family-power`, CARDS[code].name);
    chip.setAttribute("aria-label", `${CARDS[code].name}: ${CARDS[code].text}`);
    if (wire(chip, `board:${seat}:power:${code}`)) chip.setAttribute("role", "button");
    if (before && !before.powers.includes(code)) chip.classList.add("nt-changed");
    powers.append(chip);
  }
  const sappy = board.sappy_next + board.sappy_now;
  if (sappy) powers.append(el("span", "power family-event", `Sappy Feet ×${sappy}`));
  box.append(powers);
  return box;
}

// ------------------------------------------------------------------ the menu of several actions on one thing

function closeMenu(root, refocus = false) {
  const open = root.querySelector(".nutty-menu");
  if (!open) return;
  const owner = open._owner;
  open.remove();
  if (refocus && owner && owner.isConnected) owner.focus();
}

function choose(root, node, items, obs, act) {
  if (items.length === 1) {
    act(items[0]);
    return;
  }
  closeMenu(root);
  const menu = el("div", "nutty-menu");
  menu.setAttribute("role", "menu");
  menu._owner = node;
  const title = node.getAttribute("aria-label") || node.dataset.target || "Choose";
  menu.setAttribute("aria-label", title);
  menu.append(el("div", "menu-title", title.split(",")[0]));
  for (const item of items) {
    const b = el("button", "menu-item");
    b.type = "button";
    b.setAttribute("role", "menuitem");
    b.dataset.index = String(item.index);
    const label = el("span", "menu-label");
    label.append(el("strong", "", item.notation));
    const detail = (item.label || "").startsWith(`${item.notation} — `) ? item.label.slice(item.notation.length + 3) : "";
    if (detail) label.append(el("small", "", detail));
    b.append(label);
    const cost = costOf(item, obs);
    if (cost) b.append(el("span", "menu-cost", cost));
    b.addEventListener("click", (event) => {
      event.stopPropagation();
      act(item);
    });
    menu.append(b);
  }
  menu.addEventListener("click", (event) => event.stopPropagation());
  menu.addEventListener("keydown", (event) => {
    const buttons = [...menu.querySelectorAll("button")];
    const at = buttons.indexOf(document.activeElement);
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      buttons[(at + step + buttons.length) % buttons.length].focus();
    } else if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      closeMenu(root, true);
    }
  });
  const game = root.querySelector(".nutty") || root;
  game.append(menu);
  const r = node.getBoundingClientRect();
  const g = game.getBoundingClientRect();
  const width = Math.min(320, g.width - 8);
  menu.style.width = `${width}px`;
  let x = r.left - g.left;
  x = Math.max(4, Math.min(x, g.width - width - 4));
  menu.style.left = `${x}px`;
  menu.style.top = `${r.bottom - g.top + 4}px`;
  const first = menu.querySelector("button");
  if (first) first.focus(); // the menu takes the focus (Escape gives it back to what opened it)
}
