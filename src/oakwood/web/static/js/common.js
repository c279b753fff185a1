// Shared helpers of the Oakwood client: building elements (text only, never HTML), updating them in place,
// cards, the hand's roving tabindex, a small Markdown reader, and seat names.

/** An element with attributes and children; strings become text nodes (never parsed as HTML). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on") && typeof value === "function") listen(node, key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

export function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// ------------------------------------------------------------------ updating in place
// Every update draws the board afresh, then `morph` makes the live page match it while keeping every element
// that is still there: a button under the pointer stays the same button, so a click that began before an
// update (another player's answer in a Quarrel, someone connecting) still lands, and focus stays put.
// Handlers go through `listen`, which keeps them on the element as data, so a kept element takes the new one.

/** Call `handler` for `type` events on `node` (one listener per type, whose handler `morph` can replace). */
export function listen(node, type, handler) {
  if (!node._handlers) node._handlers = {};
  if (!(type in node._handlers)) node.addEventListener(type, (event) => node._handlers[type]?.(event));
  node._handlers[type] = handler;
  return node;
}

function keyOf(node) {
  return node.nodeType === Node.ELEMENT_NODE ? node.dataset.key ?? null : null;
}

function sameKind(a, b) {
  return a.nodeType === b.nodeType && a.nodeName === b.nodeName;
}

/** Make `live` (in the page) look and act like `fresh` (just built), keeping the elements they share: children
 * with the same `data-key`, else the next unkeyed child of the same tag. `fresh` is used up. */
export function morph(live, fresh) {
  if (live.nodeType !== Node.ELEMENT_NODE) {
    if (live.nodeValue !== fresh.nodeValue) live.nodeValue = fresh.nodeValue;
    return;
  }
  for (const { name } of [...live.attributes]) if (!fresh.hasAttribute(name)) live.removeAttribute(name);
  for (const { name, value } of [...fresh.attributes]) if (live.getAttribute(name) !== value) live.setAttribute(name, value);
  for (const [type, handler] of Object.entries(fresh._handlers || {})) listen(live, type, handler);
  for (const type of Object.keys(live._handlers || {})) if (!fresh._handlers || !(type in fresh._handlers)) live._handlers[type] = null;
  const keyed = new Map();
  const unkeyed = [];
  for (const child of [...live.childNodes]) {
    const key = keyOf(child);
    if (key !== null && !keyed.has(key)) keyed.set(key, child);
    else unkeyed.push(child);
  }
  const used = new Set();
  let at = 0;
  const wanted = [...fresh.childNodes];
  wanted.forEach((child, position) => {
    const key = keyOf(child);
    let match = key !== null ? keyed.get(key) : null;
    if (match && !sameKind(match, child)) match = null;
    if (!match && key === null) {
      while (at < unkeyed.length && (used.has(unkeyed[at]) || !sameKind(unkeyed[at], child))) at += 1;
      match = at < unkeyed.length ? unkeyed[at++] : null;
    }
    const next = live.childNodes[position] || null;
    if (match) {
      used.add(match);
      morph(match, child);
      if (match !== next) live.insertBefore(match, next);
    } else {
      live.insertBefore(child, next);
    }
  });
  while (live.childNodes.length > wanted.length) live.lastChild.remove();
}

/** Draw `fresh` as the only content of `root`, keeping what it shares with what is there (see `morph`). */
export function patch(root, fresh) {
  const box = root.cloneNode(false);
  box.append(fresh);
  morph(root, box);
}

/** Make `root`'s children those of `fresh` (a container built for it), keeping what they share (see `morph`). */
export function patchChildren(root, fresh) {
  const box = root.cloneNode(false);
  box.append(...fresh.childNodes);
  morph(root, box);
}

/** A label as a button shows it: "Pass for the rest of the battle". */
export function capitalise(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** The name to show for a seat of a table summary. */
export function seatLabel(table, seat) {
  const s = table && table.seats ? table.seats[seat] : null;
  if (!s) return `Seat ${seat + 1}`;
  if (s.name) return s.name;
  if (s.kind === "bot") return `Bot ${seat + 1} (${s.level || "bot"})`;
  return `Seat ${seat + 1} (free)`;
}

/** Make `container` one Tab stop whose `.card` children are reached with the arrow keys. The cards are looked
 * up when a key is pressed, so the same handler serves after `morph` kept or replaced any of them. */
export function rovingHand(container, selector = ".card") {
  const items = [...container.querySelectorAll(selector)];
  if (!items.length) return;
  let current = items.findIndex((item) => item.dataset.current === "1");
  if (current < 0) current = Math.max(0, items.findIndex((item) => item.classList.contains("playable")));
  items.forEach((item, i) => item.setAttribute("tabindex", i === current ? "0" : "-1"));
  listen(container, "keydown", (event) => {
    const cards = [...event.currentTarget.querySelectorAll(selector)];
    const at = cards.indexOf(document.activeElement);
    if (at < 0) return;
    let next = null;
    if (event.key === "ArrowRight" || event.key === "ArrowDown") next = (at + 1) % cards.length;
    else if (event.key === "ArrowLeft" || event.key === "ArrowUp") next = (at - 1 + cards.length) % cards.length;
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = cards.length - 1;
    if (next === null) return;
    event.preventDefault();
    cards[at].setAttribute("tabindex", "-1");
    cards[next].setAttribute("tabindex", "0");
    cards[next].focus();
  });
  listen(container, "focusin", (event) => {
    const cards = [...event.currentTarget.querySelectorAll(selector)];
    const at = cards.indexOf(event.target);
    if (at >= 0) cards.forEach((item, i) => { item.dataset.current = i === at ? "1" : ""; });
  });
}

/** After `patch`, a hand whose card has the focus keeps that card as its Tab stop. */
export function settleFocus(root) {
  const active = document.activeElement;
  const hand = active && root.contains(active) ? active.closest(".hand") : null;
  if (!hand) return;
  hand.querySelectorAll(".card").forEach((c) => c.setAttribute("tabindex", c === active ? "0" : "-1"));
}

// ------------------------------------------------------------------ playing cards (Barrell)
export const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
export const SUIT_WORDS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANK_WORDS = { A: "Ace", J: "Jack", Q: "Queen", K: "King" };

/** Split a card name like "10H" or "RJ" into rank and suit ("" for a Joker). */
export function parseCard(name) {
  if (name === "RJ" || name === "BJ") return { rank: name, suit: "" };
  return { rank: name.slice(0, -1), suit: name.slice(-1) };
}

/** Words a screen reader says for a playing card. */
export function cardWords(name) {
  if (name === "RJ") return "Red Joker";
  if (name === "BJ") return "Black Joker";
  const { rank, suit } = parseCard(name);
  return `${RANK_WORDS[rank] || rank} of ${SUIT_WORDS[suit]}`;
}

/** A short text for a card, with its suit symbol: "10♥", "Red Joker". */
export function cardShort(name) {
  if (name === "RJ") return "Red Joker";
  if (name === "BJ") return "Black Joker";
  const { rank, suit } = parseCard(name);
  return `${rank}${SUITS[suit]}`;
}

/** A face-up playing card (a <button> when `interactive`). */
export function playingCard(name, { size = "", interactive = false, extraClass = "", label = null } = {}) {
  const tag = interactive ? "button" : "div";
  const words = label || cardWords(name);
  const attrs = { class: `card ${size} ${extraClass}`.trim(), "aria-label": words, title: words };
  if (interactive) attrs.type = "button";
  else attrs.role = "img";
  if (name === "RJ" || name === "BJ") {
    const red = name === "RJ";
    return el(tag, { ...attrs, class: `${attrs.class} joker${red ? " red" : ""}` },
      el("span", { class: "corner", "aria-hidden": "true" }, "J", el("br"), "★"),
      el("span", { class: "pip", "aria-hidden": "true" }, "★"),
      el("span", { class: "name", "aria-hidden": "true" }, red ? "Red Joker" : "Black Joker"));
  }
  const { rank, suit } = parseCard(name);
  const symbol = SUITS[suit];
  const face = { J: "♞", Q: "♛", K: "♚" }[rank];
  return el(tag, { ...attrs, class: `${attrs.class} s-${suit}` },
    el("span", { class: "corner", "aria-hidden": "true" }, rank, el("br"), symbol),
    el("span", { class: "pip", "aria-hidden": "true" }, face ? `${face}` : symbol),
    el("span", { class: "corner bottom", "aria-hidden": "true" }, rank, el("br"), symbol));
}

/** A face-down card. */
export function cardBack({ size = "", label = "a face-down card", count = null, interactive = false } = {}) {
  const tag = interactive ? "button" : "div";
  const node = el(tag, { class: `card back ${size}`.trim(), "aria-label": label, title: label,
    role: interactive ? null : "img", type: interactive ? "button" : null });
  if (count !== null) node.append(el("span", { class: "count-badge", "aria-hidden": "true" }, String(count)));
  return node;
}

/** A row of `n` small card backs (a hand seen from across the table). */
export function backs(n, label) {
  const row = el("div", { class: "row hand-backs", role: "img", "aria-label": label, title: label });
  const shown = Math.min(n, 12);
  for (let i = 0; i < shown; i++) row.append(el("div", { class: "card back tiny", "aria-hidden": "true" }));
  if (n > shown) row.append(el("span", { class: "hint" }, `+${n - shown}`));
  if (n === 0) row.append(el("span", { class: "hint" }, "no cards"));
  return row;
}

// ------------------------------------------------------------------ Markdown, as text nodes
/** Draw a Markdown document simply: headings, paragraphs, lists, tables as rows; inline marks removed. */
export function markdown(text) {
  const out = document.createDocumentFragment();
  const plain = (s) => s.replace(/\*\*(.+?)\*\*/g, "$1").replace(/\*(.+?)\*/g, "$1").replace(/`([^`]+)`/g, "$1")
    .replace(/\[([^\]]+)\]\([^)]+\)/g, "$1");
  let para = [];
  let list = null;
  const flush = () => {
    if (para.length) out.append(el("p", {}, plain(para.join(" "))));
    para = [];
  };
  for (const raw of text.split("\n")) {
    const line = raw.trimEnd();
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const bullet = /^\s*(?:[-*+]|\d+\.)\s+(.*)$/.exec(line);
    if (!line.trim()) { flush(); list = null; continue; }
    if (heading) {
      flush(); list = null;
      out.append(el(`h${Math.min(heading[1].length + 1, 6)}`, {}, plain(heading[2])));
    } else if (bullet) {
      flush();
      if (!list) { list = el(/^\s*\d+\./.test(line) ? "ol" : "ul"); out.append(list); }
      list.append(el("li", {}, plain(bullet[1])));
    } else if (/^\|/.test(line)) {
      flush(); list = null;
      if (/^\|[\s:|-]+\|$/.test(line)) continue;
      out.append(el("p", { class: "table-row" }, plain(line.replace(/^\||\|$/g, "").split("|").map((c) => c.trim()).join(" · "))));
    } else if (list && /^\s+/.test(raw)) {
      list.lastChild.append(" " + plain(line.trim()));
    } else {
      list = null;
      para.push(line.trim());
    }
  }
  flush();
  return out;
}
