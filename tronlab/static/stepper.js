// tronlab search stepper: the board at the visited node and the search tree so far.
// Data comes from tronlab/course/stepper.py (stepper_data); "step" is synced both ways.
function drawBoard(ctx, board, colors, px) {
  const h = board.cells.length, w = board.cells[0].length;
  ctx.canvas.width = w * px; ctx.canvas.height = h * px;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const c = board.cells[y][x];
      ctx.fillStyle = c === 0 ? "#ffffff" : c === 1 ? colors.wall : colors.trails[(c - 2) % 4];
      ctx.fillRect(x * px, y * px, px, px);
      ctx.strokeStyle = "#d0d0d0"; ctx.strokeRect(x * px + 0.5, y * px + 0.5, px - 1, px - 1);
    }
  }
  board.heads.forEach(([x, y], p) => {
    ctx.fillStyle = colors.players[p]; ctx.fillRect(x * px + 2, y * px + 2, px - 4, px - 4);
    ctx.fillStyle = "#ffffff"; ctx.font = `bold ${Math.floor(px * 0.55)}px sans-serif`;
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillText(String(p + 1), x * px + px / 2, y * px + px / 2);
  });
}

function drawTree(ctx, data, step) {
  const nodes = data.nodes, steps = data.steps.slice(0, step + 1);
  const seen = new Set(steps.map(s => s[0]));
  const done = new Set(steps.filter(s => s[1] === "leave").map(s => s[0]));
  const finished = step === data.steps.length - 1;
  const pv = new Set(finished ? data.pv : []);
  const maxX = Math.max(...nodes.map(n => n.x + 0.6 * n.pruned.length), 1);
  const maxY = Math.max(...nodes.map(n => n.y), 1);
  const W = ctx.canvas.width, H = ctx.canvas.height, m = 24;
  const sx = x => m + (x / maxX) * (W - 2 * m), sy = y => m + (y / maxY) * (H - 2 * m - 14);
  ctx.fillStyle = "#ffffff"; ctx.fillRect(0, 0, W, H);   // a light page in a dark theme too
  ctx.font = "11px sans-serif"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
  for (const n of nodes) {
    if (!seen.has(n.id) || n.parent < 0) continue;
    const p = nodes[n.parent], onPv = pv.has(n.id) && pv.has(p.id);
    ctx.strokeStyle = onPv ? "#000000" : "#888888"; ctx.lineWidth = onPv ? 3 : 1;
    ctx.beginPath(); ctx.moveTo(sx(p.x), sy(p.y)); ctx.lineTo(sx(n.x), sy(n.y)); ctx.stroke();
    ctx.fillStyle = "#555555";
    ctx.fillText(n.move, (sx(p.x) + sx(n.x)) / 2 + 7, (sy(p.y) + sy(n.y)) / 2);
  }
  for (const n of nodes) {
    if (!seen.has(n.id)) continue;
    if (done.has(n.id)) {
      n.pruned.forEach((mv, k) => {
        const x2 = sx(n.x) + 22 + 16 * k, y2 = sy(n.y) + 26;
        ctx.strokeStyle = "#bbbbbb"; ctx.setLineDash([3, 3]); ctx.lineWidth = 1;
        ctx.beginPath(); ctx.moveTo(sx(n.x), sy(n.y)); ctx.lineTo(x2, y2); ctx.stroke();
        ctx.setLineDash([]); ctx.fillStyle = "#999999"; ctx.fillText("x" + mv, x2, y2 + 8);
      });
    }
    const colour = data.colors.players[n.player];
    ctx.beginPath(); ctx.arc(sx(n.x), sy(n.y), 11, 0, 2 * Math.PI);
    ctx.fillStyle = done.has(n.id) ? colour : "#ffffff"; ctx.fill();
    ctx.strokeStyle = colour; ctx.lineWidth = 2; ctx.stroke();
    if (done.has(n.id)) {
      ctx.fillStyle = "#ffffff";
      ctx.fillText(Math.abs(n.value) < 1000 ? String(n.value) : "L", sx(n.x), sy(n.y));
    }
  }
  const cur = nodes[steps[steps.length - 1][0]];
  ctx.strokeStyle = "#000000"; ctx.lineWidth = 2;
  ctx.beginPath(); ctx.arc(sx(cur.x), sy(cur.y), 16, 0, 2 * Math.PI); ctx.stroke();
}

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "tronlab-stepper";
  root.tabIndex = 0;
  // the arrow keys are the stepper's, not the front end's (Notebook 7 binds them)
  root.setAttribute("data-lm-suppress-shortcuts", "true");
  // and its slider's and buttons' too: Lumino matches from the focused element up, so the
  // root's attribute did not cover them (ArrowDown on the slider moved the notebook's cell)
  root.addEventListener("focusin", (e) => {
    if (e.target instanceof Element) e.target.setAttribute("data-lm-suppress-shortcuts", "true");
  });
  root.style.cssText = "font-family: sans-serif;";   // its focus cue: stepper.css
  const row = document.createElement("div");
  row.style.cssText = "display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start;";
  const board = document.createElement("canvas");
  board.className = "tronlab-stepper-board";
  const tree = document.createElement("canvas");
  tree.className = "tronlab-stepper-tree";
  tree.width = 620; tree.height = 260;
  // a cell narrower than the pictures (a narrow window) scales them down, keeping their shape
  for (const c of [board, tree]) c.style.cssText = "max-width: 100%; height: auto;";
  row.append(board, tree);
  const bar = document.createElement("div");
  bar.style.cssText = "display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-top: 6px;";
  const prev = document.createElement("button");
  prev.textContent = "< prev"; prev.className = "tronlab-stepper-prev";
  const next = document.createElement("button");
  next.textContent = "next >"; next.className = "tronlab-stepper-next";
  const slider = document.createElement("input");
  slider.type = "range"; slider.min = "0"; slider.style.cssText = "width: 260px; max-width: 100%;";
  for (const b of [prev, next]) b.style.whiteSpace = "nowrap";
  const text = document.createElement("span");
  text.className = "tronlab-stepper-text";
  bar.append(prev, next, slider, text);
  root.append(row, bar);
  el.append(root);

  function show() {
    const data = model.get("data");
    if (!data || !data.steps) return;
    const step = Math.max(0, Math.min(model.get("step"), data.steps.length - 1));
    const nodeId = data.steps[step][0];
    const b = data.boards[nodeId];
    const px = Math.max(14, Math.min(36, Math.floor(240 / Math.max(b.cells.length, b.cells[0].length))));
    drawBoard(board.getContext("2d"), b, data.colors, px);
    drawTree(tree.getContext("2d"), data, step);
    slider.max = String(data.steps.length - 1); slider.value = String(step);
    prev.disabled = step === 0; next.disabled = step === data.steps.length - 1;
    text.textContent = data.texts[step];
    root.dataset.step = String(step); root.dataset.node = String(nodeId);
  }
  function go(delta) {
    const data = model.get("data"), last = data.steps.length - 1;
    const step = Math.max(0, Math.min(model.get("step") + delta, last));
    model.set("step", step); model.save_changes();
  }
  // the root keeps the focus (a button at the end is disabled and would drop it): keys go on
  prev.addEventListener("click", () => { go(-1); root.focus(); });
  next.addEventListener("click", () => { go(1); root.focus(); });
  slider.addEventListener("input", () => { model.set("step", Number(slider.value)); model.save_changes(); });
  root.addEventListener("keydown", e => {
    if (e.key === "ArrowRight") { go(1); e.preventDefault(); e.stopPropagation(); }
    if (e.key === "ArrowLeft") { go(-1); e.preventDefault(); e.stopPropagation(); }
  });
  model.on("change:step", show);
  model.on("change:data", show);
  show();
}

export default { render };
