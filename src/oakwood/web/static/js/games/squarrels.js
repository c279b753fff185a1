// S'Quarrels drawn from an update: your hand as cards (store / discard / play on the cards), the Deck (draw),
// the Hoard race (big slap / pass buttons with the countdown), the Quarrel (who has committed), every other
// player's hand size, storage and known cards, the Action discard, the Hoard pile and the scores.
import { capitalise, el, backs, listen, patch, rovingHand, settleFocus } from "../common.js";

const LOOK = {
  rotten: { cls: "sq-rotten", pip: "☠", title: "Rotten Acorn", short: "Rotten" },
  golden: { cls: "sq-golden", pip: "★", title: "Golden Acorn", short: "Golden" },
  quarrel: { cls: "sq-action", pip: "⚔", title: "Quarrel", short: "Quarrel" },
  hoard: { cls: "sq-action", pip: "⌂", title: "Hoard", short: "Hoard" },
  ambush: { cls: "sq-action", pip: "⚡", title: "Ambush", short: "Ambush" },
  whirlwind: { cls: "sq-action", pip: "↻", title: "Whirlwind", short: "Whirlwind" },
  winter: { cls: "sq-action sq-winter", pip: "❄", title: "Winter", short: "Winter" },
};
// SQ-24: a card seen going to a player is known until it may have left, so it can sit in the hand, in a pending
// Quarrel play or among that player's face-down discards in the Hoard Pile (a hand can be empty and known at once).
const KNOWN_TITLE = "Cards you saw go to this player and that cannot have left them since: in their hand, their "
  + "face-down Quarrel play, or their discards in the current Hoard Pile (SQ-24)";
const HAND_VERBS = new Set(["store", "store-wild", "discard", "play"]);
let selected = null; // the kind of hand card whose actions are shown, kept while it has actions

function look(name) {
  if (LOOK[name]) return LOOK[name];
  return { cls: "sq-num", pip: name, title: `${name} acorn${name === "1" ? "" : "s"}`, short: name, number: Number(name) };
}

/** One S'Quarrels card. */
export function sqCard(name, { size = "", interactive = false, extra = "", key = null, label = null } = {}) {
  const info = look(name);
  const tag = interactive ? "button" : "div";
  const words = label || info.title;
  const node = el(tag, { class: `card ${info.cls} ${size} ${extra}`.trim(), "aria-label": words, title: words,
    type: interactive ? "button" : null, role: interactive ? null : "img", dataset: key ? { key, card: name } : { card: name } },
  el("span", { class: "corner", "aria-hidden": "true" }, info.number ? name : info.pip),
  el("span", { class: "pip", "aria-hidden": "true" }, info.pip),
  info.number ? el("span", { class: "acorns", "aria-hidden": "true" }, "●".repeat(info.number)) : el("span", { class: "name", "aria-hidden": "true" }, info.short));
  return node;
}

function cardOf(action) {
  const word = action.notation.split(" ")[1] || "";
  return word.replace(/\+golden$/, "");
}

function setChip(value, golden) {
  return el("span", { class: "chip", title: `a set of three ${value}s${golden ? " with the Golden" : ""}` },
    `${value}${value}${value}`, golden ? "★" : "");
}

function storageRow(obs, seat) {
  const sets = obs.storage[seat] || [];
  const golden = [...(obs.storage_with_golden?.[seat] || [])];
  if (!sets.length) return el("span", { class: "hint" }, "nothing stored");
  return el("div", { class: "chips", "aria-label": "stored sets" }, sets.map((v) => {
    const i = golden.indexOf(v);
    if (i >= 0) golden.splice(i, 1);
    return setChip(v, i >= 0);
  }));
}

export function render(root, update, ctx) {
  const obs = update.observation;
  const me = update.seat;
  const legal = update.legal;
  const toAct = new Set(obs.terminal ? [] : obs.to_act);
  const prevObs = ctx.previous ? ctx.previous.observation : null;
  const differs = (pick) => prevObs !== null && JSON.stringify(pick(prevObs)) !== JSON.stringify(pick(obs));
  const board = el("div", { class: "board squarrels" });

  // the round line
  const phaseText = {
    drawing: "drawing", must_draw: "must draw", quarrel: "a Quarrel!", race: "a Hoard race!", over: "the match is over",
  }[obs.phase] || obs.phase.replaceAll("_", " ");
  board.append(el("div", { class: "row hint" },
    `Round ${obs.round}`, " · ", `dealer ${ctx.seatName(obs.dealer)}`, " · ",
    obs.target_score ? `first to ${obs.target_score}` : "single round", " · ", phaseText,
    me !== null && obs.your_round_score !== null ? ` · your round score if Winter came now: ${obs.your_round_score}` : "",
    obs.last_round_scores ? ` · last round: ${obs.last_round_scores.join(" / ")}` : ""));

  // the other players
  const others = el("div", { class: "opponents" });
  for (let s = 0; s < obs.players; s++) {
    if (s === me) continue;
    others.append(playerZone(obs, s, ctx, toAct, differs));
  }
  board.append(others);

  // the middle: Deck, Hoard pile, Action discard, Quarrel, race
  const middle = el("div", { class: "middle zone" });
  const draw = legal.find((a) => a.verb === "draw");
  const deck = el("div", { class: "pile" });
  const deckCard = el(draw ? "button" : "div", {
    class: `card back${draw ? " playable" : ""}${differs((o) => o.deck_size) ? " changed" : ""}`,
    type: draw ? "button" : null, "aria-label": draw ? `Deck, ${obs.deck_size} cards: ${draw.label}` : `Deck, ${obs.deck_size} cards`,
    title: draw ? draw.label : "the Deck", dataset: { key: "deck" }, onclick: draw ? () => ctx.act(draw.index) : null,
  }, el("span", { class: "count-badge", "aria-hidden": "true" }, String(obs.deck_size)));
  deck.append(deckCard, el("span", {}, draw ? "Deck — click to draw" : "Deck"));
  const hoard = el("div", { class: "pile" },
    el("div", { class: `card back${differs((o) => o.hoard_pile_size) ? " changed" : ""}`, role: "img",
      "aria-label": `Hoard Pile, ${obs.hoard_pile_size} cards face down` },
      el("span", { class: "count-badge", "aria-hidden": "true" }, String(obs.hoard_pile_size))),
    el("span", {}, "Hoard Pile"),
    obs.hoard_pile_yours && obs.hoard_pile_yours.length
      ? el("span", { class: "hint" }, `yours in it: ${obs.hoard_pile_yours.join(" ")}`) : null);
  const discard = el("div", { class: "pile" },
    el("div", { class: `row${differs((o) => o.action_discard) ? " changed" : ""}`, "aria-label": "Action discard" },
      Object.keys(obs.action_discard).length
        ? Object.entries(obs.action_discard).map(([name, n]) => {
          const c = sqCard(name, { size: "small", label: `${look(name).title} ×${n}` });
          c.append(el("span", { class: "count-badge", "aria-hidden": "true" }, `×${n}`));
          return c;
        })
        : el("span", { class: "hint" }, "empty")),
    el("span", {}, "Action discard"),
    obs.golden_out_of_match ? el("span", { class: "hint" }, "the Golden is out of the match") : null);
  middle.append(deck, hoard, discard);
  board.append(middle);
  if (obs.quarrel) board.append(quarrelPanel(obs, ctx));
  if (obs.race) board.append(racePanel(obs, update, ctx));

  // your side
  if (me !== null) {
    const zone = el("section", { class: `zone you${toAct.has(me) ? " turn" : ""}`, "aria-label": "Your hand and storage" });
    zone.append(el("div", { class: "zone-title" }, `${ctx.seatName(me)} — you`,
      el("span", { class: "sub" }, `total ${obs.scores[me]}`),
      obs.must_draw_to_7 ? el("span", { class: "badge turn" }, "draw up to 7") : null));
    zone.append(el("div", { class: "row" }, el("span", { class: "hint" }, "Stored:"), storageRow(obs, me)));
    const handActions = legal.filter((a) => HAND_VERBS.has(a.verb));
    const byCard = new Map();
    for (const action of handActions) {
      const name = cardOf(action);
      if (!byCard.has(name)) byCard.set(name, []);
      byCard.get(name).push(action);
    }
    // a chosen card stays chosen while it has moves (others answering a Quarrel change nothing of yours)
    if (selected !== null && (byCard.get(selected) || []).length < 2) selected = null;
    const hand = el("div", { class: "hand", role: "group", "aria-label": "Your hand (arrow keys move between cards)" });
    const counts = {};
    const before = {};
    for (const name of prevObs && prevObs.hand ? prevObs.hand : []) before[name] = (before[name] || 0) + 1;
    for (const name of obs.hand || []) {
      counts[name] = (counts[name] || 0) + 1;
      const actions = byCard.get(name) || [];
      const fresh = prevObs && counts[name] > (before[name] || 0);
      const words = `${look(name).title}${actions.length ? ": " + actions.map((a) => a.label).join(", or ") : ""}`;
      const card = sqCard(name, {
        interactive: true, key: `hand-${name}-${counts[name]}`, label: words,
        extra: `${actions.length ? "playable" : ""}${selected === name ? " selected" : ""}${fresh ? " fresh" : ""}`,
      });
      listen(card, "click", () => {
        if (!actions.length) return;
        if (actions.length === 1) { ctx.act(actions[0].index); return; }
        selected = selected === name ? null : name;
        render(root, update, { ...ctx, previous: null });
      });
      hand.append(card);
    }
    if (!(obs.hand || []).length) hand.append(el("span", { class: "hint" }, "Your hand is empty."));
    zone.append(hand);
    const bar = el("div", { class: "actionbar", "aria-label": "Actions of the chosen card" });
    if (selected && byCard.has(selected)) {
      bar.append(el("span", { class: "hint" }, `${look(selected).title}:`));
      for (const action of byCard.get(selected)) {
        bar.append(el("button", { type: "button", class: "primary", dataset: { index: String(action.index), key: `act-${action.index}` },
          onclick: () => ctx.act(action.index) }, capitalise(action.label)));
      }
    } else if (handActions.length) {
      bar.append(el("span", { class: "hint" }, hint(obs, handActions)));
    }
    for (const action of legal.filter((a) => a.verb === "end")) {
      bar.append(el("button", { type: "button", dataset: { index: String(action.index), key: `act-${action.index}` },
        onclick: () => ctx.act(action.index) }, capitalise(action.label)));
    }
    zone.append(bar);
    if (obs.known_in_hands?.[me]?.length) {
      zone.append(el("div", { class: "hint" }, `Others know you hold: ${obs.known_in_hands[me].join(" ")}`));
    }
    board.append(zone);
    rovingHand(hand);
  }
  patch(root, board);
  settleFocus(root);
}

function hint(obs, actions) {
  if (obs.phase === "quarrel") return "Choose a card to play in the Quarrel (it stays hidden until everyone has chosen).";
  const verbs = new Set(actions.map((a) => a.verb));
  if (verbs.has("store") && verbs.has("discard")) return "Click a card: store a set of three, or discard one to end your turn.";
  if (verbs.has("discard")) return "Click a card to discard it to the Hoard Pile and end your turn.";
  return "Click a highlighted card.";
}

function playerZone(obs, s, ctx, toAct, differs) {
  const badges = [];
  if (obs.quarrel && obs.quarrel.live.includes(s)) {
    badges.push(el("span", { class: `badge${obs.quarrel.committed.includes(s) ? " chosen" : ""}` },
      obs.quarrel.committed.includes(s) ? "has chosen" : "choosing…"));
  }
  if (obs.race && obs.race.eligible.includes(s)) {
    const done = obs.race.passed.includes(s) ? "passed" : obs.race.committed.includes(s) ? "answered" : "racing";
    badges.push(el("span", { class: "badge" }, done));
  }
  if (s === obs.active && !obs.terminal) badges.push(el("span", { class: "badge turn" }, "active"));
  const known = obs.known_in_hands?.[s] || [];
  return el("section", { class: `zone${toAct.has(s) ? " turn" : ""}`, "aria-label": ctx.seatName(s), dataset: { seat: String(s) } },
    el("div", { class: "zone-title" }, el("span", { class: "who" }, ctx.seatName(s)),
      el("span", { class: "sub" }, `total ${obs.scores[s]} · ${obs.hand_sizes[s]} card${obs.hand_sizes[s] === 1 ? "" : "s"}`), badges),
    el("div", { class: differs((o) => o.hand_sizes[s]) ? "changed" : "" }, backs(obs.hand_sizes[s], `${obs.hand_sizes[s]} cards in hand`)),
    el("div", { class: `row${differs((o) => o.storage[s]) ? " changed" : ""}` }, el("span", { class: "hint" }, "Stored:"), storageRow(obs, s)),
    known.length ? el("div", { class: "row hint known", title: KNOWN_TITLE },
      obs.hand_sizes[s] ? "Known (in hand or discarded face down): " : "Known (among their face-down discards): ",
      known.map((n) => sqCard(n, { size: "small" }))) : null);
}

function quarrelPanel(obs, ctx) {
  const q = obs.quarrel;
  return el("section", { class: "zone event-panel", "aria-label": "The Quarrel" },
    el("h3", {}, `⚔ Quarrel — drawn by ${ctx.seatName(q.drawer)}`),
    el("div", { class: "row", style: "justify-content:center" }, q.live.map((s) => el("span", {
      class: `badge${q.committed.includes(s) ? " chosen" : ""}` }, `${ctx.seatName(s)}: ${q.committed.includes(s) ? "has chosen" : "choosing…"}`))),
    q.your_play ? el("p", {}, "You played ", sqCard(q.your_play, { size: "small" }), " — hidden until everyone has chosen.") : null,
    q.pot.length ? el("div", { class: "row", style: "justify-content:center" }, el("span", { class: "hint" }, "In the pot:"),
      q.pot.map((p) => el("span", { class: "row" }, sqCard(p.card, { size: "small" }), el("span", { class: "hint" }, ctx.seatName(p.seat))))) : null);
}

function racePanel(obs, update, ctx) {
  const r = obs.race;
  const slap = update.legal.find((a) => a.verb === "slap");
  const pass = update.legal.find((a) => a.verb === "pass");
  const panel = el("section", { class: "zone event-panel", "aria-label": "The Hoard race" },
    el("h3", {}, `⌂ Hoard race — ${ctx.seatName(r.drawer)} drew the Hoard`),
    el("p", { class: "hint" }, r.mode === "realtime" ? "The first to slap takes the Hoard Pile." : "Slap or pass; the winner is picked among the slappers."));
  if (slap || pass) {
    panel.append(el("div", { class: "big-buttons" },
      slap ? el("button", { type: "button", class: "slap", dataset: { index: String(slap.index) }, onclick: () => ctx.act(slap.index) }, "SLAP!") : null,
      pass ? el("button", { type: "button", dataset: { index: String(pass.index) }, onclick: () => ctx.act(pass.index) }, "Pass") : null));
    if (update.deadline !== null && update.deadline !== undefined) {
      panel.append(el("p", {}, "Time left: ", el("span", { class: "countdown", "data-countdown": "" }, `${update.deadline} s`)));
    }
  } else if (r.your_answer) {
    panel.append(el("p", {}, `You answered: ${r.your_answer}.`));
  }
  panel.append(el("div", { class: "row", style: "justify-content:center" }, r.eligible.map((s) => el("span", { class: "badge" },
    `${ctx.seatName(s)}: ${r.passed.includes(s) ? "passed" : r.committed.includes(s) ? "answered" : "…"}`))));
  return panel;
}

/** The cards of a round summary (the Golden and Rotten shown at Winter), drawn small. */
export function summaryCards(codes) {
  return codes.map((code) => sqCard(code, { size: "small" }));
}
