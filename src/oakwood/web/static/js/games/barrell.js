// Barrell drawn from an update: your hand (play / mulligan / give on the cards), every field face up and face
// down (return on your field's cards), the Queen Zone, the Deck and the Discard (take on its cards), battle wins,
// pass / keep / Joker buttons, opponents as targets of a swap or a heart gift, and committed gifts as "chosen".
import { capitalise, el, backs, cardBack, cardShort, listen, patch, playingCard, rovingHand, settleFocus } from "../common.js";

const CARD_VERBS = new Set(["play", "mulligan", "give", "return", "take"]);
const TARGET_VERBS = new Set(["swap", "gift"]);
let selected = null; // the card whose actions are shown, kept while it has several

function cardOf(action) { return action.notation.split(" ")[1] || ""; }
function targetOf(action) {
  const m = / P(\d+)$/.exec(action.notation);
  return m ? Number(m[1]) - 1 : null;
}

const PHASES = {
  dice: "rolling for the first player", mulligan: "mulligan", play: "playing cards", jokers: "Jokers",
  hearts: "heart gifts", kh: "King of Hearts", ks: "King of Spades", swap: "Jack of Spades: a trade of fields", over: "the game is over",
};

export function render(root, update, ctx) {
  const obs = update.observation;
  const me = update.seat;
  const legal = update.legal;
  const prevObs = ctx.previous ? ctx.previous.observation : null;
  const differs = (pick) => prevObs !== null && JSON.stringify(pick(prevObs)) !== JSON.stringify(pick(obs));
  const toAct = new Set(obs.terminal ? [] : obs.to_act);
  const byCard = new Map();
  for (const action of legal.filter((a) => CARD_VERBS.has(a.verb))) {
    const name = cardOf(action);
    if (!byCard.has(name)) byCard.set(name, []);
    byCard.get(name).push(action);
  }
  if (selected !== null && (byCard.get(selected) || []).length < 2) selected = null;
  const byTarget = new Map();
  for (const action of legal.filter((a) => TARGET_VERBS.has(a.verb) || (a.verb === "give" && selected && cardOf(a) === selected))) {
    const t = targetOf(action);
    if (t === null) continue;
    if (!byTarget.has(t)) byTarget.set(t, []);
    byTarget.get(t).push(action);
  }
  const redraw = () => render(root, update, { ...ctx, previous: null });

  /** A card that carries its legal actions: one action plays at once, several open the action bar. */
  const actionable = (name, { size = "", extra = "", key }) => {
    const actions = byCard.get(name) || [];
    const label = `${cardShort(name)}${actions.length ? ": " + actions.map((a) => a.label).join(", or ") : ""}`;
    const card = playingCard(name, { size, interactive: true, label,
      extraClass: `${extra}${actions.length ? " playable" : ""}${selected === name ? " selected" : ""}` });
    card.dataset.key = key;
    card.dataset.card = name;
    listen(card, "click", () => {
      if (!actions.length) return;
      if (actions.length === 1) { ctx.act(actions[0].index); return; }
      selected = selected === name ? null : name;
      redraw();
    });
    return card;
  };

  const board = el("div", { class: "board barrell" });
  board.append(el("div", { class: "row hint" },
    `Battle ${obs.battle}`, " · ", PHASES[obs.phase] || obs.phase.replaceAll("_", " "),
    obs.first_player !== null && obs.first_player !== undefined ? ` · ${ctx.seatName(obs.first_player)} plays first` : "",
    " · first to 2 battles wins",
    obs.jack_of_diamonds ? " · J♦ active" : "",
    obs.drawn_streak ? ` · ${obs.drawn_streak} drawn battle${obs.drawn_streak > 1 ? "s" : ""} in a row` : ""));

  // the other players
  const others = el("div", { class: "opponents" });
  for (let s = 0; s < obs.players; s++) {
    if (s === me) continue;
    const targets = byTarget.get(s) || [];
    const zone = fieldZone(obs, s, ctx, toAct, differs, { actionable: null, mine: false });
    if (targets.length) {
      zone.classList.add("target");
      zone.setAttribute("role", "button");
      zone.setAttribute("tabindex", "0");
      zone.setAttribute("aria-label", `${ctx.seatName(s)}: ${targets.map((a) => a.label).join(", or ")}`);
      const go = () => ctx.act(targets[0].index);
      listen(zone, "click", go);
      listen(zone, "keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
    }
    others.append(zone);
  }
  board.append(others);

  // the middle: Queen Zone, Deck, Discard
  const middle = el("div", { class: "middle zone" });
  middle.append(el("div", { class: "pile" },
    el("div", { class: `row${differs((o) => o.queen_zone) ? " changed" : ""}`, "aria-label": "Queen Zone" },
      obs.queen_zone.length ? obs.queen_zone.map((c) => playingCard(c, { size: "small" })) : el("span", { class: "hint" }, "empty")),
    el("span", {}, "Queen Zone")));
  middle.append(el("div", { class: "pile" },
    cardBack({ size: "small", label: `Deck, ${obs.deck_size} cards`, count: obs.deck_size }), el("span", {}, "Deck")));
  const takes = legal.some((a) => a.verb === "take");
  const shown = takes ? obs.discard : obs.discard.slice(-8);
  middle.append(el("div", { class: "pile" },
    el("div", { class: `row${differs((o) => o.discard.length) ? " changed" : ""}`, "aria-label": `Discard pile, ${obs.discard.length} cards` },
      obs.discard.length ? shown.map((c, i) => actionable(c, { size: "small", key: `discard-${c}`, extra: "" })) : el("span", { class: "hint" }, "empty"),
      obs.discard.length > shown.length ? el("span", { class: "hint" }, `+${obs.discard.length - shown.length} under`) : null),
    el("span", {}, takes ? "Discard — take a card" : "Discard (newest last)")));
  if (obs.cancelled && obs.cancelled.length) middle.append(el("div", { class: "pile" }, el("span", {}, `Cancelled by the J♦: ${obs.cancelled.map(cardShort).join(" ")}`)));
  board.append(middle);

  if (obs.battle_scores) {
    board.append(el("div", { class: "row hint" }, "Last battle: ",
      obs.battle_scores.map((score, s) => `${ctx.seatName(s)} ${score}`).join(" · "),
      obs.battle_winners && obs.battle_winners.length ? ` — won by ${obs.battle_winners.map((s) => ctx.seatName(s)).join(", ")}` : " — drawn"));
  }

  // your side
  if (me !== null) {
    const zone = fieldZone(obs, me, ctx, toAct, differs, { actionable, mine: true });
    const hand = el("div", { class: "hand", role: "group", "aria-label": "Your hand (arrow keys move between cards)" });
    const before = new Set(prevObs && prevObs.hand ? prevObs.hand : []);
    for (const name of obs.hand || []) {
      hand.append(actionable(name, { key: `hand-${name}`, extra: prevObs && !before.has(name) ? "fresh" : "" }));
    }
    if (!(obs.hand || []).length) hand.append(el("span", { class: "hint" }, "Your hand is empty."));
    zone.append(hand);
    if (obs.aside && obs.aside.length) {
      zone.append(el("div", { class: "row hint" }, "Set aside for the mulligan: ", obs.aside.map((c) => playingCard(c, { size: "small" }))));
    }
    const bar = el("div", { class: "actionbar" });
    if (selected && byCard.has(selected)) {
      bar.append(el("span", { class: "hint" }, `${cardShort(selected)}:`));
      for (const action of byCard.get(selected)) {
        bar.append(el("button", { type: "button", class: "primary", dataset: { index: String(action.index), key: `act-${action.index}` },
          onclick: () => ctx.act(action.index) }, capitalise(action.label)));
      }
    }
    for (const action of legal.filter((a) => !CARD_VERBS.has(a.verb))) {
      const big = ["pass", "keep", "joker keep", "joker field"].includes(action.verb);
      bar.append(el("button", { type: "button", class: big ? "primary" : "", dataset: { index: String(action.index), key: `act-${action.index}` },
        onclick: () => ctx.act(action.index) }, capitalise(action.label)));
    }
    if (obs.my_gift !== undefined) bar.append(el("span", { class: "badge chosen" }, `you chose to give your hearts to ${ctx.seatName(obs.my_gift)}`));
    if (!bar.childNodes.length && legal.length) bar.append(el("span", { class: "hint" }, "Click a highlighted card."));
    zone.append(bar);
    board.append(zone);
    rovingHand(hand);
  }
  patch(root, board);
  settleFocus(root);
}

function fieldZone(obs, s, ctx, toAct, differs, { actionable, mine }) {
  const badges = [];
  badges.push(el("span", { class: "badge", title: "battles won" }, `${"♛".repeat(obs.wins[s])}${obs.wins[s]} won`));
  if (obs.passed[s]) badges.push(el("span", { class: "badge" }, "passed"));
  if (obs.committed && obs.committed[s] !== null) {
    badges.push(el("span", { class: `badge${obs.committed[s] ? " chosen" : ""}` }, obs.committed[s] ? "chosen" : "choosing…"));
  }
  if (obs.active === s && !obs.terminal) badges.push(el("span", { class: "badge turn" }, "to play"));
  const field = el("div", { class: `row field${differs((o) => o.fields[s]) ? " changed" : ""}`, "aria-label": "field" });
  obs.fields[s].forEach((slot, i) => {
    if (slot.card === null) {
      field.append(cardBack({ size: mine ? "" : "small", label: "a face-down card you have not seen" }));
    } else if (mine && actionable) {
      field.append(actionable(slot.card, { size: "", key: `field-${slot.card}`, extra: slot.face_up ? "" : "face-down-known" }));
    } else {
      field.append(playingCard(slot.card, { size: "small", extraClass: slot.face_up ? "" : "face-down-known",
        label: `${cardShort(slot.card)}${slot.face_up ? "" : " (face down, you know it)"}` }));
    }
  });
  if (!obs.fields[s].length) field.append(el("span", { class: "hint" }, "empty"));
  const known = (obs.known_in_hands[s] || []).filter(() => !mine);
  const zone = el("section", { class: `zone${toAct.has(s) ? " turn" : ""}${mine ? " you" : ""}`, "aria-label": mine ? "Your field and hand" : ctx.seatName(s), dataset: { seat: String(s) } },
    el("div", { class: "zone-title" }, el("span", { class: "who" }, mine ? `${ctx.seatName(s)} — you` : ctx.seatName(s)),
      el("span", { class: "sub" }, `${obs.hand_sizes[s]} card${obs.hand_sizes[s] === 1 ? "" : "s"} in hand`), badges),
    mine ? null : backs(obs.hand_sizes[s], `${obs.hand_sizes[s]} cards in hand`),
    el("div", { class: "row" }, el("span", { class: "hint" }, "Field:"), field),
    known.length ? el("div", { class: "row hint" }, "Known in hand: ", known.map((c) => playingCard(c, { size: "small" }))) : null,
    obs.recalled[s] && obs.recalled[s].length && !mine ? el("div", { class: "hint" }, `Seen returning to hand or field: ${obs.recalled[s].map(cardShort).join(" ")}`) : null);
  return zone;
}

/** The cards of a battle summary (each field as revealed), drawn small. */
export function summaryCards(codes) {
  return codes.map((code) => playingCard(code, { size: "small" }));
}
