// tronlab MapEditor front end: paint walls and starts on a canvas, save as a map file.
// The map is the `cells` trait (rows of '#', ' ', '1', '2'); every stroke is sent to
// Python ({kind: "paint", x, y, tool}), which applies it (and its mirror image) and
// syncs `cells` back.  Keyboard: Tab to the canvas, the arrow keys move a cursor square,
// Space or Enter paints it.  No network access.

const TOOLS = [["#", "wall"], [" ", "erase"], ["1", "start 1"], ["2", "start 2"]];
const COLORS = { "#": "#3b3b3b", " ": "#f4f4f0", "1": "#1f6fd1", "2": "#e4572e" };  // walls and heads as on the board

function el_(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function render({ model, el }) {
  const root = el_("div", "tronlab-board tronlab-map-editor");
  // JupyterLab and Notebook 7 must not see keys typed in any of the widget's controls: on a
  // focused slider or button, ArrowDown also moved the notebook's selection and "d d"
  // deleted the cell.  Lumino matches its shortcuts from the focused element up and stops
  // at this attribute, so it must be on that element itself: each control gets it as it
  // takes the focus (the overlay checkboxes come and go)
  root.addEventListener("focusin", (e) => {
    if (e.target instanceof Element) e.target.setAttribute("data-lm-suppress-shortcuts", "true");
  });
  const bar = el_("div", "tronlab-toolbar");
  const canvas = el_("canvas", "tronlab-canvas");
  canvas.tabIndex = 0;
  // the arrow keys move the cursor, not the front end's cell selection (Notebook 7 binds them)
  canvas.setAttribute("data-lm-suppress-shortcuts", "true");
  canvas.setAttribute("role", "img");
  canvas.setAttribute("aria-label",
    "map editor: click or drag to paint; or the arrow keys move a cursor and Space paints");
  canvas.title = "click or drag to paint; or the arrow keys move a cursor and Space paints";
  const status = el_("div", "tronlab-status");

  const toolButtons = TOOLS.map(([tool, label]) => {
    const b = el_("button", "tronlab-tool", label);
    b.dataset.tool = tool;
    b.setAttribute("aria-pressed", "false");
    b.addEventListener("click", () => { model.set("tool", tool); model.save_changes(); });
    bar.appendChild(b);
    return b;
  });
  const symLabel = el_("label", "tronlab-sym");
  const sym = el_("input");
  sym.type = "checkbox";
  sym.className = "tronlab-symmetric";
  sym.addEventListener("change", () => { model.set("symmetric", sym.checked); model.save_changes(); });
  symLabel.append(sym, " point-symmetric");
  const path = el_("input", "tronlab-path");
  path.type = "text";
  path.size = 32;
  // every keystroke, not "change": JupyterLab takes Enter for itself, so "change" waited
  // for the box to lose the focus while ed.save() in Python used the old path
  path.addEventListener("input", () => { model.set("path", path.value); model.save_changes(); });
  path.setAttribute("aria-label", "map file");
  path.title = "the map file that save writes and load reads (load also takes a built-in map's name)";
  const save = el_("button", "tronlab-save", "save");
  save.addEventListener("click", () => send({ kind: "save" }));
  const load = el_("button", "tronlab-load", "load");
  load.addEventListener("click", () => send({ kind: "load" }));
  bar.append(symLabel, path, save, load);
  root.append(bar, canvas, status);
  el.appendChild(root);

  let px = 20, cur = [1, 1];       // cur: the keyboard's cursor square
  // After a kernel restart the widget's channel is closed and model.send throws: say so
  let lost = false;
  function send(msg) {
    try { model.send(msg); } catch (err) { lost = true; draw(); }
  }
  function draw() {
    const w = model.get("width"), h = model.get("height"), rows = model.get("cells") || [];
    px = Math.max(6, Math.min(28, Math.floor(520 / Math.max(w, h))));
    canvas.width = w * px;
    canvas.height = h * px;
    const ctx = canvas.getContext("2d");
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const c = (rows[y] || "")[x] || " ";
        ctx.fillStyle = COLORS[c] || COLORS[" "];
        ctx.fillRect(x * px, y * px, px, px);
        ctx.strokeStyle = "rgba(0,0,0,0.08)";
        ctx.strokeRect(x * px + 0.5, y * px + 0.5, px - 1, px - 1);
        if (c === "1" || c === "2") {
          ctx.fillStyle = "#fff";
          ctx.font = `${Math.floor(px * 0.7)}px sans-serif`;
          ctx.textAlign = "center";
          ctx.textBaseline = "middle";
          ctx.fillText(c, x * px + px / 2, y * px + px / 2 + 1);
        }
      }
    }
    if (document.activeElement === canvas) {      // the keyboard's cursor square
      cur = [Math.min(cur[0], w - 1), Math.min(cur[1], h - 1)];
      ctx.strokeStyle = "#f0a500";
      ctx.lineWidth = Math.max(2, Math.floor(px / 8));
      ctx.strokeRect(cur[0] * px + ctx.lineWidth / 2, cur[1] * px + ctx.lineWidth / 2,
                     px - ctx.lineWidth, px - ctx.lineWidth);
      ctx.lineWidth = 1;
    }
    canvas.dataset.rows = rows.join("\n");
    for (const b of toolButtons) {
      const on = b.dataset.tool === model.get("tool");
      b.classList.toggle("tronlab-active", on);
      b.setAttribute("aria-pressed", String(on));
    }
    sym.checked = model.get("symmetric");
    if (document.activeElement !== path) path.value = model.get("path");
    status.textContent = lost
      ? "This editor has lost its kernel (restarted or shut down): run its cell again."
      : model.get("status");
    status.classList.toggle("tronlab-error", lost || model.get("status_error"));
  }

  let dragging = false, last = "";
  function cellAt(ev) {
    // the canvas may be shown scaled down (a narrow cell): measure inside its border
    const r = canvas.getBoundingClientRect();
    const cx = ev.clientX - r.left - canvas.clientLeft, cy = ev.clientY - r.top - canvas.clientTop;
    const x = Math.floor(cx * (canvas.width / canvas.clientWidth) / px);
    const y = Math.floor(cy * (canvas.height / canvas.clientHeight) / px);
    return [x, y];
  }
  function paint(ev) {
    const [x, y] = cellAt(ev);
    if (x < 0 || y < 0 || x >= model.get("width") || y >= model.get("height")) return;
    const key = `${x},${y}`;
    if (key === last) return;
    last = key;
    cur = [x, y];
    send({ kind: "paint", x, y, tool: model.get("tool") });
  }
  canvas.addEventListener("mousedown", (ev) => { dragging = true; last = ""; paint(ev); });
  canvas.addEventListener("mousemove", (ev) => {
    const tool = model.get("tool");
    if (dragging && (tool === "#" || tool === " ")) paint(ev);
  });
  window.addEventListener("mouseup", () => { dragging = false; });
  const STEPS = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
  canvas.addEventListener("keydown", (ev) => {
    const step = STEPS[ev.key];
    if (step) {
      cur = [Math.max(0, Math.min(model.get("width") - 1, cur[0] + step[0])),
             Math.max(0, Math.min(model.get("height") - 1, cur[1] + step[1]))];
      draw();
    } else if (ev.key === " " || ev.key === "Enter") {
      send({ kind: "paint", x: cur[0], y: cur[1], tool: model.get("tool") });
    } else {
      return;
    }
    ev.preventDefault();
    ev.stopPropagation();
  });
  canvas.addEventListener("focus", draw);
  canvas.addEventListener("blur", draw);

  for (const name of ["cells", "width", "height", "tool", "symmetric", "path", "status", "status_error"]) {
    model.on(`change:${name}`, draw);
  }
  draw();
}

export default { render };
