// tronlab CaptureWidget front end (Back to the Code).  Python (tronlab/capture/widget.py)
// keeps the game; this page draws the frame in `shown` and sends the player's wishes:
// {kind: "click", x, y}, {kind: "move", move} (0-3: up, right, down, left; the arrow keys
// and WASD on the focused board), {kind: "next"}, {kind: "back", n}.  The slider sets `frame`.

// the Tron board's keys (board.js): one square that way, one round a key press
const KEY_MOVES = {
  ArrowUp: 0, ArrowRight: 1, ArrowDown: 2, ArrowLeft: 3,
  w: 0, d: 1, s: 2, a: 3, W: 0, D: 1, S: 2, A: 3,
};
const KEYS_HELP = {
  play: "click a square to aim there, or click the board and move with the arrow keys or WASD",
  replay: "click the board, then the left and right arrows step a round",
};

function el_(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function render({ model, el }) {
  const root = el_("div", "tronlab-capture");
  // JupyterLab and Notebook 7 must not see keys typed in any of the widget's controls: on a
  // focused slider or button, ArrowDown also moved the notebook's selection and "d d"
  // deleted the cell.  Lumino matches its shortcuts from the focused element up and stops
  // at this attribute, so it must be on that element itself: each control gets it as it
  // takes the focus (the overlay checkboxes come and go)
  root.addEventListener("focusin", (e) => {
    if (e.target instanceof Element) e.target.setAttribute("data-lm-suppress-shortcuts", "true");
  });
  const bar = el_("div", "tronlab-capture-bar");
  const next = el_("button", "tronlab-capture-next", "next round");
  const back = el_("button", "tronlab-capture-back", "BACK");
  const pick = el_("input", "tronlab-capture-pick");
  pick.type = "number"; pick.min = 1; pick.max = 25; pick.value = 5; pick.title = "rounds to go back";
  const slider = el_("input", "tronlab-capture-slider");
  slider.type = "range"; slider.min = 0;
  const label = el_("span", "tronlab-capture-round");
  bar.append(next, back, pick, el_("span", "tronlab-capture-sep", "replay"), slider, label);
  const canvas = el_("canvas", "tronlab-capture-canvas");
  canvas.tabIndex = 0;                                  // it takes the focus, then the keys
  canvas.setAttribute("data-lm-suppress-shortcuts", "true");
  canvas.setAttribute("role", "img");
  const legend = el_("div", "tronlab-capture-legend");   // who is which colour
  const info = el_("div", "tronlab-capture-info");
  const status = el_("div", "tronlab-capture-status");
  root.append(bar, canvas, legend, info, status);
  el.appendChild(root);

  let px = 18, blink = 0, timer = null, lastFlashKey = "";
  // After a kernel restart the widget's channel is closed and model.send throws: say so
  let lost = false;
  function send(msg) {
    try { model.send(msg); } catch (err) { lost = true; draw(); }
  }

  function draw() {
    const f = model.get("shown") || {}, rows = f.rows || [];
    const w = model.get("width"), h = model.get("height"), colors = model.get("colors") || {};
    px = Math.max(8, Math.min(28, Math.floor(640 / Math.max(w, h))));
    canvas.width = w * px; canvas.height = h * px;
    const ctx = canvas.getContext("2d");
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const c = (rows[y] || "")[x] || ".";
        ctx.fillStyle = c === "." ? "#ffffff" : colors.owners[Number(c)];
        ctx.fillRect(x * px, y * px, px, px);
        ctx.strokeStyle = "rgba(0,0,0,0.10)";
        ctx.strokeRect(x * px + 0.5, y * px + 0.5, px - 1, px - 1);
      }
    }
    // what the last enclosure took: amber at the edge and, as in the static picture
    // (capture/render.py), a dark inner box, since amber alone is 1.1:1 on salmon and blue
    const inner = Math.round(px * 0.66), off = (px - inner) / 2;
    for (const [x, y] of f.flash || []) {
      ctx.strokeStyle = "#ffb000"; ctx.lineWidth = 2;
      ctx.strokeRect(x * px + 1.5, y * px + 1.5, px - 3, px - 3);
      if (blink % 2 === 1) { ctx.fillStyle = "rgba(255,176,0,0.65)"; ctx.fillRect(x * px, y * px, px, px); }
      ctx.strokeStyle = "#222222"; ctx.lineWidth = px >= 16 ? 2 : 1;
      ctx.strokeRect(x * px + off, y * px + off, inner, inner);
      ctx.lineWidth = 1;
    }
    const shared = {};                           // players on one square split it into quarters
    (f.positions || []).forEach((pos, p) => { if (pos) (shared[pos.join()] ||= []).push(p); });
    (f.positions || []).forEach((pos, p) => {
      if (!pos) return;
      const [x, y] = pos, group = shared[pos.join()], k = group.indexOf(p);
      const n = group.length, rows = Math.ceil(n / 2);
      const cx = n > 1 ? (x + 0.5 + (k % 2 - 0.5) * 0.48) * px : (x + 0.5) * px;
      const cy = n > 1 ? (y + 0.5 + (Math.floor(k / 2) - (rows - 1) / 2) * 0.48) * px : (y + 0.5) * px;
      const side = n > 1 ? px * 0.44 : px - 4;
      ctx.fillStyle = colors.players[p];
      ctx.fillRect(cx - side / 2, cy - side / 2, side, side);
      ctx.fillStyle = "#ffffff"; ctx.font = `bold ${Math.floor(side * 0.7)}px sans-serif`;
      ctx.textAlign = "center"; ctx.textBaseline = "middle";
      ctx.fillText(String(p), cx, cy + 1);
    });
    const t = model.get("target"), you = model.get("you");
    if (t && you >= 0) {
      ctx.strokeStyle = colors.players[you]; ctx.lineWidth = 2;
      ctx.beginPath(); ctx.arc(t[0] * px + px / 2, t[1] * px + px / 2, px * 0.42, 0, 2 * Math.PI);
      ctx.stroke(); ctx.lineWidth = 1;
    }
    canvas.dataset.rows = rows.join("\n");
    canvas.dataset.round = String(f.round);
    canvas.dataset.flash = String((f.flash || []).length);
    slider.max = model.get("n_frames") - 1;
    slider.value = model.get("frame");
    label.textContent = `round ${Math.max(0, (f.round || 1) - 1)} (frame ${model.get("frame")} of ${model.get("n_frames") - 1})`;
    const playing = you >= 0;
    const keys = KEYS_HELP[playing ? "play" : "replay"];
    canvas.setAttribute("aria-label", `capture game: ${keys}`);
    canvas.title = keys;
    next.disabled = back.disabled = !playing || f.over;
    pick.disabled = !playing;
    if (playing && f.backs) back.disabled = back.disabled || f.backs[you] < 1;
    next.style.display = back.style.display = pick.style.display = playing ? "" : "none";
    drawLegend(colors, f);
    info.textContent = f.text || "";
    status.textContent = lost
      ? "This game has lost its kernel (restarted or shut down): run its cell again."
      : model.get("status");
  }

  function drawLegend(colors, f) {
    const names = model.get("names") || [];
    legend.replaceChildren();
    for (let p = 0; p < model.get("n_players"); p++) {
      const item = el_("span", "tronlab-capture-legend-item");
      const sw = el_("span", "tronlab-capture-swatch");
      sw.style.background = colors.players[p];
      const out = (f.eliminated || [])[p] ? " (out)" : "";
      item.append(sw, document.createTextNode(` ${p}${names[p] ? ": " + names[p] : ""}${out}`));
      legend.append(item);
    }
  }

  function flashIfNew() {
    const f = model.get("shown") || {};
    const key = `${model.get("frame")}:${(f.flash || []).length}`;
    if (!(f.flash || []).length || key === lastFlashKey) { draw(); return; }
    lastFlashKey = key;
    if (timer) clearInterval(timer);
    blink = 0; draw();
    timer = setInterval(() => {
      blink += 1; draw();
      if (blink >= 6) { clearInterval(timer); timer = null; blink = 0; draw(); }
    }, 220);
  }

  canvas.addEventListener("click", (ev) => {
    if (model.get("you") < 0) return;
    // the canvas may be shown scaled down (a narrow cell): measure inside its border
    const r = canvas.getBoundingClientRect();
    const cx = ev.clientX - r.left - canvas.clientLeft, cy = ev.clientY - r.top - canvas.clientTop;
    const x = Math.floor(cx * (canvas.width / canvas.clientWidth) / px);
    const y = Math.floor(cy * (canvas.height / canvas.clientHeight) / px);
    if (x < 0 || y < 0 || x >= model.get("width") || y >= model.get("height")) return;
    send({ kind: "click", x, y });
  });
  canvas.addEventListener("mousedown", () => canvas.focus());
  canvas.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const playing = model.get("you") >= 0;
    if (playing && e.key in KEY_MOVES) {
      e.preventDefault();
      e.stopPropagation();
      // a held key repeats some 30 times a second: each would be a round (with a slow bot,
      // rounds queued for seconds); one round a press, as a click
      if (!e.repeat) send({ kind: "move", move: KEY_MOVES[e.key] });
    } else if (!playing && (e.key === "ArrowLeft" || e.key === "ArrowRight")) {
      e.preventDefault();
      e.stopPropagation();
      const k = model.get("frame") + (e.key === "ArrowLeft" ? -1 : 1);
      model.set("frame", Math.max(0, Math.min(model.get("n_frames") - 1, k)));
      model.save_changes();
      draw();
    }
  });
  // the board takes the focus back, as the Tron board's buttons give it: the keys play on
  // (a BACK button disabled once used had dropped the focus to the page)
  next.addEventListener("click", () => { send({ kind: "next" }); canvas.focus(); });
  back.addEventListener("click", () => { send({ kind: "back", n: Number(pick.value) }); canvas.focus(); });
  slider.addEventListener("input", () => { model.set("frame", Number(slider.value)); model.save_changes(); });

  model.on("change:shown", flashIfNew);
  for (const name of ["target", "status", "n_frames", "frame", "colors", "names"]) model.on(`change:${name}`, draw);
  flashIfNew();
  return () => { if (timer) clearInterval(timer); };
}

export default { render };
