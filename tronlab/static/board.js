// tronlab BoardWidget front end: one canvas, keyboard and button play,
// in-browser replay animation, overlays with show/hide checkboxes.
// Wire format: see the docstring of tronlab/widgets.py.  No network access.

const KEY_MOVES = {
  ArrowUp: 0, ArrowRight: 1, ArrowDown: 2, ArrowLeft: 3,
  w: 0, d: 1, s: 2, a: 3, W: 0, D: 1, S: 2, A: 3,
};
const MOVE_ARROWS = ["\u2191", "\u2192", "\u2193", "\u2190"];
const MOVE_WORDS = ["up", "right", "down", "left"];
const CHAMBER_TINTS = ["#f5fa05", "#64ff23", "#faff5a", "#00f500", "#afff14", "#ffb400"];
const HEAT_STOPS = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];
const FPS_CHOICES = [1, 2, 4, 8, 16, 32];
const LOST = "This board has lost its kernel (restarted or shut down): run its cell again.";

// The menu entry nearest to any speed: the menu never grows.
function nearestFps(fps) {
  let best = FPS_CHOICES[0];
  for (const f of FPS_CHOICES) if (Math.abs(Math.log(f / fps)) < Math.abs(Math.log(best / fps))) best = f;
  return best;
}

// Play and pause icons drawn with CSS boxes: no font needs to have them.
function icon(kind) {
  const i = el_("span", `tronlab-icon tronlab-icon-${kind}`);
  i.setAttribute("aria-hidden", "true");
  return i;
}

function setPlayLabel(button, playing) {
  button.replaceChildren(icon(playing ? "pause" : "play"),
                         document.createTextNode(playing ? " pause" : " play"));
}

function decodeCells(b64) {
  const raw = atob(b64 || "");
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

function decodeFrame(f) {
  if (!f || typeof f.cells !== "string") return null;
  return { cells: decodeCells(f.cells), heads: f.heads || [], alive: f.alive || [] };
}

// All replay frames, rebuilt once from the start frame and the per-turn changes.
function buildFrames(payload) {
  const first = decodeFrame(payload && payload.start);
  if (!first) return [];
  const frames = [first];
  let cells = first.cells;
  for (const step of payload.steps || []) {
    cells = cells.slice();
    const d = step.d || [];
    for (let i = 0; i + 1 < d.length; i += 2) cells[d[i]] = d[i + 1];
    frames.push({ cells, heads: step.heads, alive: step.alive });
  }
  return frames;
}

function hexToRgb(hex) {
  const v = parseInt(hex.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

function rgba(rgb, a) {
  return `rgba(${rgb[0]},${rgb[1]},${rgb[2]},${a})`;
}

function heatColor(t) {
  const x = Math.min(1, Math.max(0, t)) * (HEAT_STOPS.length - 1);
  const i = Math.min(HEAT_STOPS.length - 2, Math.floor(x));
  const f = x - i;
  const a = HEAT_STOPS[i], b = HEAT_STOPS[i + 1];
  return [0, 1, 2].map((k) => Math.round(a[k] + f * (b[k] - a[k])));
}

function el_(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// what the keys do on the board, by mode: said in the canvas's label and tooltip
const KEYS_HELP = {
  play: "click it, then steer with the arrow keys or WASD",
  replay: "click it, then Space plays or pauses and the left and right arrows step a turn",
};

function render({ model, el }) {
  const root = el_("div", "tronlab-board");
  // JupyterLab and Notebook 7 must not see keys typed in any of the widget's controls: on a
  // focused slider or button, ArrowDown also moved the notebook's selection and "d d"
  // deleted the cell.  Lumino matches its shortcuts from the focused element up and stops
  // at this attribute, so it must be on that element itself: each control gets it as it
  // takes the focus (the overlay checkboxes come and go)
  root.addEventListener("focusin", (e) => {
    if (e.target instanceof Element) e.target.setAttribute("data-lm-suppress-shortcuts", "true");
  });
  const canvas = el_("canvas", "tronlab-canvas");
  canvas.tabIndex = 0;
  canvas.setAttribute("data-lm-suppress-shortcuts", "true");
  canvas.setAttribute("role", "img");
  canvas.setAttribute("aria-label", "Tron board");
  const legend = el_("div", "tronlab-legend");
  const status = el_("div", "tronlab-status");
  status.setAttribute("aria-live", "polite");

  // play controls
  const pad = el_("div", "tronlab-pad");
  const moveButtons = [0, 1, 2, 3].map((m) => {
    const b = el_("button", `tronlab-move tronlab-move-${MOVE_WORDS[m]}`, MOVE_ARROWS[m]);
    b.title = `move ${MOVE_WORDS[m]}`;
    b.addEventListener("click", () => { sendMove(m); canvas.focus(); });
    return b;
  });
  const newButton = el_("button", "tronlab-new", "New game");
  newButton.addEventListener("click", () => {
    queued = null;             // a key kept for the old game is not the new game's first move
    send({ type: "new" });
    canvas.focus();
  });
  const replayButton = el_("button", "tronlab-replay-game", "Replay");
  replayButton.title = "watch this game again";
  replayButton.addEventListener("click", () => { send({ type: "replay" }); canvas.focus(); });
  const padGrid = el_("div", "tronlab-pad-grid");
  padGrid.append(el_("span"), moveButtons[0], el_("span"),
                 moveButtons[3], moveButtons[2], moveButtons[1]);
  pad.append(padGrid, newButton, replayButton);

  // replay controls
  const bar = el_("div", "tronlab-replay");
  const playButton = el_("button", "tronlab-playpause");
  setPlayLabel(playButton, false);
  const slider = el_("input", "tronlab-slider");
  slider.type = "range";
  slider.min = "0";
  slider.step = "1";
  const turnLabel = el_("span", "tronlab-turn");
  const speed = el_("select", "tronlab-speed");
  for (const f of FPS_CHOICES) {
    const o = el_("option", "", `${f} fps`);
    o.value = String(f);
    speed.append(o);
  }
  const againButton = el_("button", "tronlab-again", "New game");
  againButton.addEventListener("click", () => { send({ type: "new" }); canvas.focus(); });
  bar.append(playButton, slider, turnLabel, speed, againButton);

  const overlayBar = el_("div", "tronlab-overlays");
  root.append(canvas, legend, status, pad, bar, overlayBar);
  el.append(root);

  const ctx = canvas.getContext("2d");
  let liveFrame = decodeFrame(model.get("frame"));
  let frames = buildFrames(model.get("frames"));
  let pos = 0;
  let timer = null;
  let waiting = false;     // a move or tick is with the kernel: a key now waits in `queued`
  let queued = null;       // the newest move asked for while waiting: sent when the kernel answers
  let watchTimer = null;
  let lost = false;        // the kernel behind this board is gone: nothing will answer

  function mode() { return model.get("mode"); }
  function palette() {
    const p = model.get("palette") || {};
    return {
      players: p.players || ["#1f6fd1", "#e4572e", "#008080", "#7900f2"],   // render.py's
      trails: p.trails || ["#a9c8f0", "#f5b8a6", "#9ecfcf", "#cc9efa"],
      wall: p.wall || "#3b3b3b", free: p.free || "#ffffff",
    };
  }
  function current() {
    if (mode() === "replay" && frames.length) return frames[Math.min(pos, frames.length - 1)];
    return liveFrame;
  }

  // One move is with the kernel at a time.  A key pressed meanwhile (the bots are thinking)
  // is kept for the next turn, the newest key winning, and sent once the kernel answers.
  function sendMove(m) {
    if (mode() !== "play" || model.get("game_over") || model.get("watching")) return;
    if (waiting) {
      queued = m;
      updateStatus();
      return;
    }
    waiting = true;
    updateStatus();
    send({ type: "move", move: m });
  }

  // A message to the kernel.  After a kernel restart the widget's channel is closed and
  // model.send throws: say so, instead of "thinking..." for ever.
  function send(msg) {
    try {
      model.send(msg);
    } catch (err) {
      lost = true;
      waiting = false;
      queued = null;
      applyWatching();
      updateStatus();
    }
  }

  // The kernel finished a message (its `thinking` went back to false): send the kept key.
  function answered() {
    waiting = false;
    const m = queued;
    queued = null;
    if (m === null) updateStatus();
    else sendMove(m);
  }

  // After the person is out the bots play on, one turn per tick, at a watchable speed.
  // Every view of the widget ticks; the kernel ignores ticks that come sooner than the
  // widget's period (BoardWidget._tick_due), so more views do not mean a faster game.
  function applyWatching() {
    const on = !lost && mode() === "play" && model.get("watching") && !model.get("game_over");
    if (on && !watchTimer) {
      watchTimer = setInterval(() => {
        if (waiting) return;
        waiting = true;
        send({ type: "tick" });
      }, 1000 / Math.min(30, Math.max(2, model.get("fps") || 8)));   // the widget's speed
    } else if (!on && watchTimer) {
      clearInterval(watchTimer);
      watchTimer = null;
    }
  }

  // The square size: the widget's own, or smaller when the cell is narrower than the
  // board (a narrow window, a side panel). A pixelated canvas scaled down by the page
  // dropped or doubled grid lines and blurred the heads' digits; this redraws at the size shown.
  function cellPx(w) {
    const px = model.get("cell_px") || 20;
    const room = el.clientWidth - 4;                 // the canvas's 2 px border each side
    return room > 0 ? Math.max(2, Math.min(px, Math.floor(room / w))) : px;
  }

  function draw() {
    const w = model.get("width"), h = model.get("height");
    const px = cellPx(w);
    const dpr = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(w * px * dpr) || canvas.height !== Math.round(h * px * dpr)) {
      canvas.width = Math.round(w * px * dpr);
      canvas.height = Math.round(h * px * dpr);
      canvas.style.width = `${w * px}px`;   // the height follows (board.css: height auto)
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const pal = palette();
    const f = current();
    updateLegend();
    ctx.fillStyle = pal.free;
    ctx.fillRect(0, 0, w * px, h * px);
    if (!f || f.cells.length !== w * h) return;
    const cells = f.cells;
    for (let i = 0; i < cells.length; i++) {
      const c = cells[i];
      if (c === 0) continue;
      ctx.fillStyle = c === 1 ? pal.wall : (pal.trails[(c - 2) % 4] || "#999999");
      ctx.fillRect((i % w) * px, Math.floor(i / w) * px, px, px);
    }
    drawOverlays(f, w, h, px);
    if (px >= 8) {
      ctx.strokeStyle = "rgba(0,0,0,0.12)";
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (let x = 1; x < w; x++) { ctx.moveTo(x * px + 0.5, 0); ctx.lineTo(x * px + 0.5, h * px); }
      for (let y = 1; y < h; y++) { ctx.moveTo(0, y * px + 0.5); ctx.lineTo(w * px, y * px + 0.5); }
      ctx.stroke();
    }
    drawHeads(f, w, px, pal);
  }

  function drawHeads(f, w, px, pal) {
    f.heads.forEach(([x, y], p) => {
      if (f.cells[y * w + x] !== 2 + p) return;  // a removed (codingame) trail: nothing to draw
      ctx.fillStyle = pal.players[p % 4];
      ctx.fillRect(x * px, y * px, px, px);
      ctx.strokeStyle = "#000000";
      ctx.lineWidth = Math.max(1, px / 10);
      ctx.strokeRect(x * px + 1, y * px + 1, px - 2, px - 2);
      if (f.alive[p]) {
        if (px >= 10) {
          ctx.fillStyle = "#ffffff";
          ctx.font = `bold ${Math.floor(px * 0.7)}px sans-serif`;
          ctx.textAlign = "center";
          ctx.textBaseline = "middle";
          ctx.fillText(String(p + 1), x * px + px / 2, y * px + px / 2 + 1);
        }
      } else {
        ctx.strokeStyle = "#000000";
        ctx.lineWidth = Math.max(1.5, px / 7);
        ctx.beginPath();
        ctx.moveTo(x * px + px * 0.2, y * px + px * 0.2);
        ctx.lineTo(x * px + px * 0.8, y * px + px * 0.8);
        ctx.moveTo(x * px + px * 0.8, y * px + px * 0.2);
        ctx.lineTo(x * px + px * 0.2, y * px + px * 0.8);
        ctx.stroke();
      }
    });
  }

  function visibleOverlays() {
    const hidden = new Set(model.get("hidden_overlays") || []);
    const all = model.get("overlays") || {};
    return Object.keys(all).filter((k) => !hidden.has(k)).map((k) => [k, all[k]]);
  }

  function drawOverlays(f, w, h, px) {
    const pal = palette();
    const order = { chambers: 0, owner: 1, heat: 2, dist: 3, mask: 4 };
    const shown = visibleOverlays().sort((a, b) => order[a[1].kind] - order[b[1].kind]);
    for (const [, ov] of shown) {
      const data = ov.data || [];
      if (data.length !== w * h) continue;
      if (ov.kind === "owner") {
        for (let i = 0; i < data.length; i++) {
          if (data[i] < 0 || f.cells[i] !== 0) continue;
          ctx.fillStyle = rgba(hexToRgb(pal.players[data[i] % 4]), 0.28);
          ctx.fillRect((i % w) * px, Math.floor(i / w) * px, px, px);
        }
      } else if (ov.kind === "chambers") {
        for (let i = 0; i < data.length; i++) {
          if (data[i] < 0 || f.cells[i] !== 0) continue;
          ctx.fillStyle = rgba(hexToRgb(CHAMBER_TINTS[data[i] % CHAMBER_TINTS.length]), 0.6);
          ctx.fillRect((i % w) * px, Math.floor(i / w) * px, px, px);
        }
        ctx.strokeStyle = "#000000";
        ctx.lineWidth = Math.max(1.5, px / 8);
        ctx.beginPath();
        for (let y = 0; y < h; y++) {
          for (let x = 0; x < w; x++) {
            const a = data[y * w + x];
            if (x + 1 < w) {
              const b = data[y * w + x + 1];
              if (a !== b && (a >= 0 || b >= 0)) {
                ctx.moveTo((x + 1) * px, y * px); ctx.lineTo((x + 1) * px, (y + 1) * px);
              }
            }
            if (y + 1 < h) {
              const b = data[(y + 1) * w + x];
              if (a !== b && (a >= 0 || b >= 0)) {
                ctx.moveTo(x * px, (y + 1) * px); ctx.lineTo((x + 1) * px, (y + 1) * px);
              }
            }
          }
        }
        ctx.stroke();
      } else if (ov.kind === "heat") {
        let lo = Infinity, hi = -Infinity;
        for (const v of data) if (v !== null) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
        for (let i = 0; i < data.length; i++) {
          if (data[i] === null || f.cells[i] !== 0) continue;
          const t = hi > lo ? (data[i] - lo) / (hi - lo) : 0.5;
          ctx.fillStyle = rgba(heatColor(t), 0.55);
          ctx.fillRect((i % w) * px, Math.floor(i / w) * px, px, px);
        }
      } else if (ov.kind === "dist") {
        if (px < 10) continue;
        ctx.fillStyle = "#222222";
        ctx.font = `${Math.floor(px * 0.45)}px sans-serif`;
        ctx.textAlign = "center";
        ctx.textBaseline = "middle";
        for (let i = 0; i < data.length; i++) {
          if (data[i] < 0 || f.cells[i] !== 0) continue;
          ctx.fillText(String(data[i]), (i % w) * px + px / 2, Math.floor(i / w) * px + px / 2 + 1);
        }
      } else if (ov.kind === "mask") {
        ctx.fillStyle = "#000000";
        for (let i = 0; i < data.length; i++) {
          if (!data[i]) continue;
          ctx.beginPath();
          ctx.arc((i % w) * px + px / 2, Math.floor(i / w) * px + px / 2, Math.max(2, px * 0.2),
                  0, 2 * Math.PI);
          ctx.fill();
        }
      }
    }
  }

  // Who is which colour, and who is out in the frame on show: a codingame cycle's trail
  // goes with it, so the legend is the one place that still says a player is out.
  let legendKey = "";
  function updateLegend() {
    const pal = palette();
    const f = current();
    const names = model.get("names") || [];
    const labels = names.map((name, p) => `${p + 1}${name ? ": " + name : ""}`
      + (f && f.alive && f.alive[p] === false ? " (out)" : ""));
    const key = JSON.stringify([labels, pal.players]);
    if (key === legendKey) return;
    legendKey = key;
    legend.replaceChildren();
    labels.forEach((label, p) => {
      const item = el_("span", "tronlab-legend-item");
      const sw = el_("span", "tronlab-swatch");
      sw.style.background = pal.players[p % 4];
      item.append(sw, document.createTextNode(` ${label}`));
      legend.append(item);
    });
  }

  function updateOverlayBar() {
    overlayBar.replaceChildren();
    const hidden = new Set(model.get("hidden_overlays") || []);
    for (const name of Object.keys(model.get("overlays") || {})) {
      const label = el_("label", "tronlab-overlay-toggle");
      const box = el_("input");
      box.type = "checkbox";
      box.checked = !hidden.has(name);
      box.dataset.overlay = name;
      box.addEventListener("change", () => {
        const now = new Set(model.get("hidden_overlays") || []);
        if (box.checked) now.delete(name); else now.add(name);
        model.set("hidden_overlays", [...now]);
        model.save_changes();
        draw();
      });
      label.append(box, document.createTextNode(` ${name}`));
      overlayBar.append(label);
    }
    overlayBar.style.display = overlayBar.childElementCount ? "" : "none";
  }

  function updateStatus() {
    let text = model.get("status") || "";
    const atEnd = frames.length && pos >= frames.length - 1;
    if (mode() === "replay" && frames.length > 1) {
      if (timer) text += " playing...";
      else if (!atEnd) text += " Press play.";
    }
    if (mode() === "replay" && atEnd && model.get("result")) {
      text += " " + model.get("result");
    }
    if (mode() === "play" && (waiting || model.get("thinking")) && !model.get("watching")) {
      text += " thinking...";
      if (queued !== null) text += ` Next move: ${MOVE_WORDS[queued]}.`;
    }
    status.textContent = lost ? LOST : text;
    root.dataset.thinking = waiting || model.get("thinking") ? "yes" : "no";
  }

  function updateReplayBar() {
    const last = Math.max(0, frames.length - 1);
    slider.max = String(last);
    slider.value = String(pos);
    turnLabel.textContent = `turn ${pos} / ${last}`;
    setPlayLabel(playButton, !!timer);
    speed.value = String(nearestFps(model.get("fps") || 8));
    updateStatus();
  }

  function updateMode() {
    const m = mode();
    root.dataset.mode = m;
    const keys = KEYS_HELP[m] || "";
    canvas.setAttribute("aria-label", keys ? `Tron board: ${keys}` : "Tron board");
    canvas.title = keys;
    root.dataset.gameOver = model.get("game_over") ? "yes" : "no";
    const over = !!model.get("game_over");
    if (m !== "play" || over || model.get("watching")) queued = null;
    pad.style.display = m === "play" ? "" : "none";
    bar.style.display = m === "replay" ? "" : "none";
    moveButtons.forEach((b) => { b.disabled = over || !!model.get("watching"); });
    replayButton.style.display = over ? "" : "none";
    againButton.style.display = model.get("can_restart") ? "" : "none";
    applyWatching();
  }

  function syncTurn() {
    if (model.get("turn") !== pos) {
      model.set("turn", pos);
      model.save_changes();
    }
  }

  function stop(save) {
    if (timer) { clearInterval(timer); timer = null; }
    if (save) {
      if (model.get("playing")) model.set("playing", false);
      model.set("turn", pos);
      model.save_changes();
    }
    updateReplayBar();
  }

  function start() {
    if (timer) clearInterval(timer);
    if (pos >= frames.length - 1) pos = 0;
    timer = setInterval(() => {
      if (pos >= frames.length - 1) { stop(true); return; }
      pos += 1;
      draw();
      updateReplayBar();
      // widget.turn (and widget.board) follow the animation, not only where it stops: one
      // small update a frame (the kernel takes ~30 us for it; ipywidgets sends one at a time
      // and folds the frames shown meanwhile into the next, so a busy kernel is not flooded)
      syncTurn();
    }, 1000 / Math.max(0.1, model.get("fps") || 8));
    updateReplayBar();
  }

  function applyPlaying() {
    if (mode() === "replay" && model.get("playing") && frames.length > 1) { start(); return; }
    const running = !!timer;
    stop(false);
    // paused from Python (widget.playing = False): say where it stopped, or widget.turn and
    // widget.board kept the turn the animation had started from
    if (running && mode() === "replay") syncTurn();
  }

  playButton.addEventListener("click", () => {
    const want = !timer;
    model.set("playing", want);  // change:playing starts or stops the animation
    if (want) start(); else stop(true);
    model.save_changes();
  });
  slider.addEventListener("input", () => {
    if (timer) { stop(false); model.set("playing", false); }
    pos = Number(slider.value);
    draw();
    updateReplayBar();
    syncTurn();
  });
  speed.addEventListener("change", () => {
    model.set("fps", Number(speed.value));  // always one of the menu's entries
    model.save_changes();
    if (timer) start();
  });

  canvas.addEventListener("mousedown", () => canvas.focus());
  canvas.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (mode() === "play" && e.key in KEY_MOVES) {
      e.preventDefault();
      e.stopPropagation();
      sendMove(KEY_MOVES[e.key]);
    } else if (mode() === "replay" && [" ", "ArrowLeft", "ArrowRight"].includes(e.key)) {
      e.preventDefault();
      e.stopPropagation();
      if (e.key === " ") { playButton.click(); return; }
      stop(true);
      pos = Math.min(frames.length - 1, Math.max(0, pos + (e.key === "ArrowLeft" ? -1 : 1)));
      draw();
      updateReplayBar();
      syncTurn();
    }
  });

  const handlers = {
    "change:frame": () => { liveFrame = decodeFrame(model.get("frame")); draw(); },
    "change:thinking": () => { if (!model.get("thinking")) answered(); else updateStatus(); },
    "change:watching": updateMode,
    "change:can_restart": updateMode,
    "change:result": updateStatus,
    "change:frames": () => { frames = buildFrames(model.get("frames")); pos = 0; updateReplayBar(); draw(); },
    "change:mode": () => { updateMode(); applyPlaying(); draw(); },
    // mid-answer (thinking) the status is news only; a status set from a cell can end a wait
    "change:status": () => { if (model.get("thinking")) updateStatus(); else answered(); },
    "change:game_over": updateMode,
    "change:names": updateLegend,
    "change:palette": () => { updateLegend(); draw(); },
    "change:overlays": () => { updateOverlayBar(); draw(); },
    "change:hidden_overlays": () => { updateOverlayBar(); draw(); },
    "change:width": draw,
    "change:height": draw,
    "change:cell_px": draw,
    "change:playing": applyPlaying,
    "change:fps": () => { updateReplayBar(); if (timer) start(); },
    "change:turn": onTurn,
  };
  function onTurn() {
    if (mode() === "replay" && !timer && model.get("turn") !== pos) {
      pos = Math.min(Math.max(0, model.get("turn")), Math.max(0, frames.length - 1));
      draw();
      updateReplayBar();
    }
  }
  for (const [ev, fn] of Object.entries(handlers)) model.on(ev, fn);

  updateLegend();
  updateStatus();
  updateOverlayBar();
  updateMode();
  updateReplayBar();
  draw();
  applyPlaying();
  // the cell's width changes with the window, a side panel, the notebook's layout
  const resized = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(() => draw());
  if (resized) resized.observe(el);

  return () => {
    if (resized) resized.disconnect();
    if (timer) clearInterval(timer);
    if (watchTimer) clearInterval(watchTimer);
    for (const [ev, fn] of Object.entries(handlers)) model.off(ev, fn);
  };
}

export default { render };
