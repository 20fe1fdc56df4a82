// tronlab MapEditor front end: paint walls and starts on a canvas, save as a map file.
// The map is the `cells` trait (rows of '#', ' ', '1', '2'); every stroke is sent to
// Python ({kind: "paint", x, y, tool}), which applies it (and its mirror image) and
// syncs `cells` back.  No network access.

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
  const bar = el_("div", "tronlab-toolbar");
  const canvas = el_("canvas", "tronlab-canvas");
  canvas.setAttribute("role", "img");
  canvas.setAttribute("aria-label", "map editor: click or drag to paint");
  const status = el_("div", "tronlab-status");

  const toolButtons = TOOLS.map(([tool, label]) => {
    const b = el_("button", "tronlab-tool", label);
    b.dataset.tool = tool;
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
  path.size = 18;
  // every keystroke, not "change": JupyterLab takes Enter for itself, so "change" waited
  // for the box to lose the focus while ed.save() in Python used the old path
  path.addEventListener("input", () => { model.set("path", path.value); model.save_changes(); });
  const save = el_("button", "tronlab-save", "save");
  save.addEventListener("click", () => send({ kind: "save" }));
  bar.append(symLabel, path, save);
  root.append(bar, canvas, status);
  el.appendChild(root);

  let px = 20;
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
    canvas.dataset.rows = rows.join("\n");
    for (const b of toolButtons) b.classList.toggle("tronlab-active", b.dataset.tool === model.get("tool"));
    sym.checked = model.get("symmetric");
    if (document.activeElement !== path) path.value = model.get("path");
    status.textContent = lost
      ? "This editor has lost its kernel (restarted or shut down): run its cell again."
      : model.get("status");
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
    send({ kind: "paint", x, y, tool: model.get("tool") });
  }
  canvas.addEventListener("mousedown", (ev) => { dragging = true; last = ""; paint(ev); });
  canvas.addEventListener("mousemove", (ev) => {
    const tool = model.get("tool");
    if (dragging && (tool === "#" || tool === " ")) paint(ev);
  });
  window.addEventListener("mouseup", () => { dragging = false; });

  for (const name of ["cells", "width", "height", "tool", "symmetric", "path", "status"]) {
    model.on(`change:${name}`, draw);
  }
  draw();
}

export default { render };
