// The fuse box's part of `propctl web`'s page (the common page, web/static/web.js, imports it): the
// card, the eight windows, the Finger weg! game (players, discs, scores), the lights and the fuse,
// and the household's memory of played cards (POST /played, propctl.web.played). Its markup is
// web.html beside this file.
let page = null;
let $ = null;
const logEvent = (e) => page.logEvent(e);
const command = (name, args, near) => page.command(name, args, near);
const input = (what, value) => page.input(what, value);
const setLight = (id, on) => page.setLight(id, on);

export default function fuseboxView(thePage) {
  page = thePage;
  $ = page.$;
  return { quiet: [], anchor: () => $("turn"), build: buildControls, draw: drawFusebox };
}

// --- the fuse box and the Finger weg! game (players and windows from 1, as on the box) ---
const fb = { chosen: null, away: new Set(), awaiting: null, box: null, card: null, spent: false };

// The household's memory (propctl web's POST /played, the play history `propctl sim fusebox`
// keeps): a new game, and a card once its round ended, so the next evening deals other cards.
async function remember(report) {
  try {
    const answer = await fetch(page.keyed("/played"), { method: "POST", body: JSON.stringify(report),
      headers: { "Content-Type": "application/json" } });
    if (!answer.ok) throw new Error("HTTP " + answer.status);
    for (const text of (await answer.json()).said) logEvent({ event: "history", t: page.boardMs, text });
  } catch (err) {
    logEvent({ event: "history", t: page.boardMs, text: "the play history did not record this: " + err.message });
  }
}

// At the same moments as the terminal: a card is spent when the bolt shows or the rules end its round.
function noteCard(e) {
  if (e.event === "card") {
    fb.card = e.id || null;
    fb.spent = false;
  } else if ((e.event === "fuse_blown" || (e.event === "scored" && e.round_over === true)) &&
             fb.card && !fb.spent) {
    fb.spent = true;
    remember({ played: fb.card });
    // the card's solution note, as the terminal sim says it after the round
    const note = page.cardNotes[fb.card];
    if (note) {
      logEvent({ event: "solution", t: page.boardMs, text: "solution " + fb.card + ": " + note });
      $("card-note").textContent = "Solution: " + note;
      $("card-note").hidden = false;
    }
  }
  if (e.event === "card") $("card-note").hidden = true;
}

function playersText(list) {
  if (list.length === 1) return "player " + list[0];
  return "players " + list.slice(0, -1).join(", ") + " and " + list[list.length - 1];
}

function drawFusebox(r) {
  const box = r.box;
  fb.box = box;
  if (r.card) {
    $("card-id").textContent = r.card.id;
    $("card-category").textContent = r.card.category;
    $("card-text").textContent = r.card.text;
  }
  document.querySelectorAll("#windows button").forEach((b, i) => {
    const open = r.open.includes(i + 1);
    const bolt = open && r.card && r.card.bolt === i + 1;
    b.classList.toggle("open", open);
    b.classList.toggle("bolt", !!bolt);
    b.classList.toggle("chosen", fb.chosen === i + 1);
    const statement = r.card ? r.card.statements[i] : "";
    const text = (i + 1) + (statement ? "\n" + statement : "") + (bolt ? "\n⚡ the bolt" : "");
    if (b.textContent !== text) b.textContent = text;
  });
  for (const name of ["led_red", "led_green", "relay"]) setLight("fb-" + name, r.outputs[name]);
  setLight("fb-piezo", r.outputs["piezo.duty"] > 0);
  for (const e of r.events) {
    noteCard(e);
    if (e.event === "fuse_blown") $("fuse").classList.add("blown");
    if (e.event === "card") $("fuse").classList.remove("blown");
    $("fuse").textContent = $("fuse").classList.contains("blown") ? "fuse BLOWN" : "fuse intact";
  }
  $("bolt-button").hidden = box.mode !== "manual";
  // the discs of a window just opened go to the box once it has seen the window open
  if (fb.awaiting && box.to_report.includes(fb.awaiting.window)) {
    const away = fb.awaiting.away;
    fb.awaiting = null;
    command("report_choices", { away });
  }
  drawGame(box);
}

function drawGame(box) {
  const game = box.game;
  const key = JSON.stringify([game, box.pending, box.open, box.card, fb.chosen, [...fb.away], !!fb.awaiting]);
  if (key === drawGame.shown) return;
  drawGame.shown = key;
  if (fb.chosen !== null && !(game && game.round_active && game.chooser)) fb.chosen = null;
  const scores = $("scores");
  scores.replaceChildren();
  if (game) {
    game.scores.forEach((points, i) => {
      const n = i + 1;
      const li = document.createElement("li");
      const notes = [];
      if (game.starter === n) notes.push("start card");
      if (game.chooser === n) notes.push("chooses");
      if (game.round_active && !game.in_round.includes(n)) notes.push("out this round");
      li.id = "score" + n;
      li.className = game.over && game.winners.includes(n) ? "winner"
        : game.chooser === n ? "chooser" : notes.includes("out this round") ? "out" : "";
      li.textContent = "Player " + n + ": " + points + (points === 1 ? " point" : " points") +
        (notes.length ? " (" + notes.join(", ") + ")" : "");
      scores.appendChild(li);
    });
  }
  $("turn").textContent = turnText(box);
  const discs = $("discs");
  discs.hidden = fb.chosen === null;
  if (fb.chosen !== null) {
    $("discs-title").textContent = "Window " + fb.chosen + ": each player lays a disc. Tap those " +
      "who take their fingers away (bolt side up); player " + game.chooser + " chose it and leaves them on.";
    const buttons = $("disc-buttons");
    buttons.replaceChildren();
    for (const n of game.in_round.filter((p) => p !== game.chooser)) {
      const b = document.createElement("button");
      b.id = "disc" + n;
      const away = fb.away.has(n);
      b.classList.toggle("away", away);
      b.setAttribute("aria-pressed", String(away));
      b.textContent = "Player " + n + (away ? ": fingers away ⚡" : ": fingers on");
      b.addEventListener("click", () => {
        if (fb.away.has(n)) fb.away.delete(n); else fb.away.add(n);
        drawGame.shown = null;
      });
      buttons.appendChild(b);
    }
    $("open-window").textContent = "Open window " + fb.chosen;
  }
}

function turnText(box) {
  const game = box.game;
  if (!game) return "Choose how many play and press New game; or just open windows.";
  if (game.over) {
    const best = Math.max(...game.scores);
    return "GAME OVER: " + playersText(game.winners) + (game.winners.length > 1 ? " win" : " wins") +
      " with " + best + " points. New game to play again.";
  }
  if (fb.awaiting) return "Window " + fb.awaiting.window + " opens…";
  if (game.round_active) {
    if (fb.chosen !== null) return "Player " + game.chooser + " chose window " + fb.chosen + ".";
    return "Player " + game.chooser + " chooses a statement: tap its window.";
  }
  if (box.pending) return "Close every window: the card goes into the box once all are shut.";
  return "Player " + game.starter + " holds the start card: close every window, then NEXT card.";
}

function windowTapped(i) {
  const box = fb.box;
  const game = box && box.game;
  if (game && game.round_active && !fb.awaiting) {
    // a round of the game: the chooser names a closed window; it opens after the discs
    if (box.open.includes(i)) return;
    fb.chosen = fb.chosen === i ? null : i;
    fb.away.clear();
    drawGame.shown = null;
    return;
  }
  input("window", i);
}

function openChosen() {
  if (fb.chosen === null) return;
  fb.awaiting = { window: fb.chosen, away: [...fb.away].sort((a, b) => a - b) };
  input("window", fb.chosen);
  fb.chosen = null;
  fb.away.clear();
  drawGame.shown = null;
}

function buildControls() {
  const box = $("windows");
  for (let i = 1; i <= 8; i++) {
    const b = document.createElement("button");
    b.id = "window" + i;
    b.textContent = String(i);
    b.addEventListener("click", () => windowTapped(i));
    box.appendChild(b);
  }
  const players = $("players");
  for (let n = 2; n <= 8; n++) players.add(new Option(String(n)));
  players.value = "4";
  $("new-game").addEventListener("click", () => {
    fb.chosen = null;
    fb.awaiting = null;
    fb.away.clear();
    drawGame.shown = null;
    const answer = command("new_game", { players: parseInt(players.value, 10) });
    if (answer.ok) remember({ new_game: answer.ok.players });
  });
  $("open-window").addEventListener("click", openChosen);
  $("cancel-window").addEventListener("click", () => { fb.chosen = null; fb.away.clear(); drawGame.shown = null; });
  $("close-windows").addEventListener("click", () => input("close_windows", 0));
  document.querySelectorAll("#fusebox button[data-input]").forEach((b) => {
    b.addEventListener("click", () => input(b.dataset.input, 1));
  });
}
