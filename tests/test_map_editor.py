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
    with pytest.raises(ValueError, match="width is a whole number from 3 to 100"):
        MapEditor(2, 5)


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
    assert "no players" in ed.status and not (tmp_path / "x.txt").exists()   # no starts: not saved
    ed._on_browser_msg(ed, {"kind": "paint", "x": 1, "y": 2, "tool": "1"}, [])
    ed._on_browser_msg(ed, {"kind": "save"}, [])
    assert ed.status.startswith("saved") and (tmp_path / "x.txt").exists()
