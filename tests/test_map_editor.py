"""The map editor's Python side (tronlab.map_editor): strokes, symmetry, starts, save/load."""

import pytest

from tronlab import load_map
from tronlab.map_editor import MapEditor
from tronlab.tron.board import BoardError


def test_a_new_map_has_a_wall_border_and_no_starts():
    ed = MapEditor(5, 4)
    assert ed.cells == ["#####", "#   #", "#   #", "#####"]
    with pytest.raises(BoardError):
        ed.board()                        # no starts yet: the map parser says so


def test_symmetric_strokes_paint_the_mirror_square_and_the_other_start():
    ed = MapEditor(7, 5, symmetric=True)
    ed.paint(2, 1, "#")
    ed.paint(1, 2, "1")
    assert ed.cells[1][2] == "#" and ed.cells[3][4] == "#"
    assert ed.cells[2][1] == "1" and ed.cells[2][5] == "2"
    ed.paint(2, 1, " ")
    assert ed.cells[1][2] == " " and ed.cells[3][4] == " "


def test_a_start_moves_instead_of_doubling():
    ed = MapEditor(6, 4, symmetric=False)
    ed.paint(1, 1, "1")
    ed.paint(2, 2, "1")
    assert "".join(ed.cells).count("1") == 1 and ed.cells[2][2] == "1"


def test_without_symmetry_only_the_square_changes():
    ed = MapEditor(6, 4, symmetric=False)
    ed.paint(1, 1, "#")
    assert "".join(ed.cells).count("#") == 2 * 6 + 2 * 2 + 1


def test_bad_strokes_are_refused_with_a_sentence():
    ed = MapEditor(5, 5)
    with pytest.raises(ValueError, match="tool is one of"):
        ed.paint(1, 1, "x")
    with pytest.raises(ValueError, match=r"\(9, 1\) is off the 5x5 map"):
        ed.paint(9, 1, "#")
    # before: 1.5 'list indices must be integers', '1' a comparison error, True painted
    # (1, 1), and the page's 1.7 was cut to 1
    for x, y in [(1.5, 1), ("1", 1), (True, 1), (1, None)]:
        with pytest.raises(TypeError, match=r"a square is two ints x, y, got "):
            ed.paint(x, y, "#")
    ed._on_browser_msg(ed, {"kind": "paint", "x": 1.7, "y": 1, "tool": "#"}, [])
    assert ed.status == "a square is two ints x, y, got 1.7, 1" and ed.status_error
    assert ed.cells == MapEditor(5, 5).cells
    with pytest.raises(ValueError, match=r"width must be an int from 3 to 100 \(squares\), got 2"):
        MapEditor(2, 5)
    for flag in ("symmetric", "border"):            # 'no' was True: mirrored, bordered
        with pytest.raises(TypeError, match=f"{flag} must be True or False, got str 'no'"):
            MapEditor(5, 5, **{flag: "no"})


def test_save_writes_a_map_file_that_loads_to_the_same_board(tmp_path):
    ed = MapEditor(9, 7, symmetric=True, path=str(tmp_path / "m.txt"))
    ed.paint(2, 3, "1")
    ed.paint(4, 2, "#")
    path = ed.save()
    assert load_map(str(path)) == ed.board()
    again = MapEditor(board=load_map(str(path)))
    assert again.cells == ed.cells and (again.width, again.height) == (9, 7)


def test_page_messages_paint_and_save_and_report_errors(tmp_path):
    ed = MapEditor(7, 5, path=str(tmp_path / "x.txt"))
    ed._on_browser_msg(ed, {"kind": "save"}, [])
    assert "no start 1 or start 2 yet" in ed.status and not (tmp_path / "x.txt").exists()
    assert ed.status_error          # the page shows it in red
    ed._on_browser_msg(ed, {"kind": "paint", "x": 1, "y": 2, "tool": "1"}, [])
    assert not ed.status_error
    ed._on_browser_msg(ed, {"kind": "save"}, [])
    assert ed.status.startswith("saved") and (tmp_path / "x.txt").exists()
    assert not ed.status_error
    # a path the page's box cannot be written to: the status says so (it used to raise in
    # the message handler, and the save button seemed to do nothing)
    for path, why in [(tmp_path / "no" / "x.txt", "No such file or directory"),
                      (tmp_path, "Is a directory")]:
        ed.path = str(path)
        ed._on_browser_msg(ed, {"kind": "save"}, [])
        assert ed.status == f"could not save the map to {str(path)!r}: {why}", ed.status
        assert ed.status_error


def test_a_failed_load_says_load_not_save(tmp_path, monkeypatch):
    # load_map words most failures itself; an OSError that still gets through said
    # "could not save the map to ..." after a press of *load*
    import tronlab.map_editor as me

    def unreadable(path):
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(me, "load_map", unreadable)
    ed = MapEditor(7, 5, path=str(tmp_path / "x.txt"))
    ed._on_browser_msg(ed, {"kind": "load"}, [])
    assert ed.status == f"could not load the map from {str(tmp_path / 'x.txt')!r}: " \
        "Permission denied" and ed.status_error


def test_no_start_on_the_centre_square_of_a_symmetric_map():
    ed = MapEditor(5, 5)
    for tool in "12":
        with pytest.raises(ValueError, match=r"\(2, 2\) is the centre square, its own mirror"):
            ed.paint(2, 2, tool)
    ed.paint(2, 2, "#")                       # a wall there is fine
    ed.paint(1, 2, "1")
    assert ed.board().n_players == 2          # (was: start 2 overwrote start 1 there)
    ed._on_browser_msg(ed, {"kind": "paint", "x": 2, "y": 2, "tool": "2"}, [])
    assert "centre square" in ed.status and ed.cells[2] == "#1#2#"
    ed.symmetric = False
    ed.paint(2, 2, "1")                       # without symmetry the centre is a square like any
    assert ed.cells[2] == "# 12#"


def test_a_board_to_edit_is_a_board_within_max_side():
    from tronlab import Board
    from tronlab.map_editor import MAX_SIDE
    with pytest.raises(TypeError, match="board is a tronlab Board, got str"):
        MapEditor(board="x")
    wide = Board.from_ascii("1" + "." * (MAX_SIDE - 1) + "2")
    with pytest.raises(ValueError, match=f"at most {MAX_SIDE} squares a side .*101x1"):
        MapEditor(board=wide)
    ed = MapEditor(5, 5)
    with pytest.raises(ValueError, match=f"at most {MAX_SIDE} squares a side"):
        ed.load_text(f"{MAX_SIDE + 1} 1\n1" + " " * (MAX_SIDE - 1) + "2\n")
    assert MapEditor(board=Board.from_ascii("1" + "." * (MAX_SIDE - 2) + "2")).width == MAX_SIDE


def test_the_editor_paints_walls_and_starts_in_the_boards_colours():
    # before: its starts were matplotlib's blue and red, not the players' colours of every
    # other picture and widget
    import pathlib
    import re

    from tronlab.render import PLAYER_COLORS, WALL_COLOR
    js = (pathlib.Path(__file__).resolve().parents[1] / "tronlab" / "static" / "map_editor.js")
    colors = dict(re.findall(r'"(.)": "(#[0-9a-f]{6})"',
                             re.search(r"const COLORS = \{([^}]*)\}", js.read_text()).group(1)))
    assert colors["#"] == WALL_COLOR and [colors["1"], colors["2"]] == list(PLAYER_COLORS[:2])


def test_a_missing_start_names_the_tool_that_places_it():
    # before: the map parser's 'no players (heads are written 1, 2, 3, 4)', which names
    # neither the editor's tools nor the start that is missing
    ed = MapEditor(7, 5, symmetric=False)
    with pytest.raises(BoardError, match=r"no start 1 or start 2 yet: pick the 'start 1' tool"):
        ed.board()
    ed.paint(1, 1, "1")
    with pytest.raises(BoardError, match=r"no start 2 yet: .*paint\(x, y, '2'\)"):
        ed.save()


def test_an_empty_file_name_is_refused_in_words(tmp_path, monkeypatch):
    # before: the page's status said "could not save the map to '': Is a directory"
    monkeypatch.chdir(tmp_path)
    ed = MapEditor(7, 5, path="")
    ed.paint(1, 2, "1")
    for kind in ("save", "load"):
        ed._on_browser_msg(ed, {"kind": kind}, [])
        assert ed.status.startswith("no file name: type one in the box"), (kind, ed.status)
    assert list(tmp_path.iterdir()) == []


def test_load_reads_a_map_file_or_a_builtin_map_back_into_the_editor(tmp_path):
    # before: the page could save a map but not read one back (no load button, no load())
    ed = MapEditor(9, 7, path=str(tmp_path / "m.txt"))
    ed.paint(2, 3, "1")
    ed.paint(4, 1, "#")
    drawn = list(ed.cells)
    ed.save()
    other = MapEditor(5, 5, path="elsewhere.txt")
    assert other.load(tmp_path / "m.txt") == tmp_path / "m.txt"
    assert other.cells == drawn and (other.width, other.height) == (9, 7)
    assert other.path == str(tmp_path / "m.txt")        # the save button writes back there
    ed.paint(4, 1, " ")
    ed._on_browser_msg(ed, {"kind": "load"}, [])         # the page's button: ed.path
    assert ed.cells == drawn and ed.status == f"loaded {tmp_path / 'm.txt'}"
    ed.path = "ring"
    ed._on_browser_msg(ed, {"kind": "load"}, [])
    assert ed.board() == load_map("ring") and ed.status == "loaded ring"
    # the save button writes ring.txt: a file called ring would hide the built-in map
    assert ed.path == "ring.txt"
    ed.path = str(tmp_path / "none.txt")
    ed._on_browser_msg(ed, {"kind": "load"}, [])
    assert ed.status == f"no such map file or built-in map: {tmp_path / 'none.txt'}"
    assert ed.board() == load_map("ring")               # a failed load keeps the map


def test_a_saved_notebook_shows_the_map_as_text():
    # before: '<tronlab.map_editor.MapEditor object at 0x...>' where no widget runs
    ed = MapEditor(5, 3, border=False, path="m.txt")
    ed.paint(0, 1, "1")
    data = ed._repr_mimebundle_()
    data = data[0] if isinstance(data, tuple) else data
    assert data["text/plain"] == "MapEditor: a 5x3 map, point-symmetric, file m.txt\n" \
        "     \n1   2\n     "
    assert "application/vnd.jupyter.widget-view+json" in data


def test_setting_the_size_grows_or_crops_the_map():
    """``ed.width = 9`` kept 7-square rows: the page drew nine columns, a click on the new ones
    raised IndexError in the kernel's log only, and board() said 'ragged rows'."""
    ed = MapEditor(7, 5, symmetric=False)
    ed.paint(1, 1, "1")
    ed.paint(5, 3, "2")
    ed.width = 9
    assert ed.cells == ["#######  ", "#1    #  ", "#     #  ", "#    2#  ", "#######  "]
    ed.paint(8, 1, "#")                                         # a new column paints
    assert ed.cells[1] == "#1    # #" and ed.board().width == 9
    ed.height = 3                                               # crops at the foot: start 2 goes
    assert ed.cells == ["#######  ", "#1    # #", "#     #  "]
    with pytest.raises(BoardError, match="no start 2"):
        ed.board()
    ed._on_browser_msg(ed, {"kind": "paint", "x": 8, "y": 2, "tool": "2"}, [])
    assert ed.status == "" and ed.board().head_xy(1) == (8, 2)
    with pytest.raises(ValueError, match="width must be an int from 1 to 100"):
        ed.width = 0
    assert ed.width == 9


def test_rows_of_the_wrong_shape_are_refused_in_words():
    ed = MapEditor(5, 3, border=False)
    with pytest.raises(ValueError, match=r"cells must be 3 rows of 5 .* got 3 rows, row 1 is '#'"):
        ed.cells = ["#####", "#", "#####"]
    with pytest.raises(ValueError, match=r"got 3 rows, row 2 is 'ab   '"):
        ed.cells = ["#####", "1   2", "ab   "]
    with pytest.raises(ValueError, match=r"got 2 rows$"):
        ed.cells = ["#####", "1   2"]
    ed.cells = ["#####", "1   2", "#####"]
    assert ed.board().head_xy(1) == (4, 1)
