// Shared helpers of the Oakwood client: building elements (text only, never HTML), cards, the hand's
// roving tabindex, a small Markdown reader, and seat names.

/** An element with attributes and children; strings become text nodes (never parsed as HTML). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
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

/** Make `container` one Tab stop whose `.card` children are reached with the arrow keys. */
export function rovingHand(container, selector = ".card") {
  const items = [...container.querySelectorAll(selector)];
  if (!items.length) return;
  let current = items.findIndex((item) => item.dataset.current === "1");
  if (current < 0) current = Math.max(0, items.findIndex((item) => item.classList.contains("playable")));
  items.forEach((item, i) => item.setAttribute("tabindex", i === current ? "0" : "-1"));
  container.addEventListener("keydown", (event) => {
    const at = items.indexOf(document.activeElement);
    if (at < 0) return;
    let next = null;
    if (event.key === "ArrowRight" || event.key === "ArrowDown") next = (at + 1) % items.length;
    else if (event.key === "ArrowLeft" || event.key === "ArrowUp") next = (at - 1 + items.length) % items.length;
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = items.length - 1;
    if (next === null) return;
    event.preventDefault();
    items[at].setAttribute("tabindex", "-1");
    items[next].setAttribute("tabindex", "0");
    items[next].focus();
  });
  container.addEventListener("focusin", (event) => {
    const at = items.indexOf(event.target);
    if (at >= 0) items.forEach((item, i) => { item.dataset.current = i === at ? "1" : ""; });
  });
}

/** Keep keyboard focus on the same card of a hand across a redraw (the root is rebuilt every update). */
export function focusKey(root) {
  const active = document.activeElement;
  if (!active || !root.contains(active)) return null;
  return active.dataset.key || null;
}
export function restoreFocus(root, key) {
  if (!key) return;
  const target = root.querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (target) {
    target.closest(".hand")?.querySelectorAll(".card").forEach((c) => c.setAttribute("tabindex", "-1"));
    target.setAttribute("tabindex", "0");
    target.focus();
  }
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
