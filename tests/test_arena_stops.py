"""How `tronlab arena run` stops when nobody reads its output any more, or when Ctrl-C
comes while its modules still load."""

import os

from tronlab.arena import Store


class _ClosedAfter:
    """stdout of `arena run --verbose | head -N`: N lines go through, then the reader is
    gone and each write raises BrokenPipeError, until /dev/null is put on its descriptor
    (as the command does, so that what it prints after that goes nowhere)."""

    def __init__(self, lines):
        self.lines, self.text = lines, ""
        reader, self.fd = os.pipe()
        os.close(reader)

    def write(self, text):
        if os.path.samestat(os.fstat(self.fd), os.stat(os.devnull)):
            return len(text)
        if self.text.count("\n") >= self.lines:
            raise BrokenPipeError(32, "Broken pipe")
        self.text += text
        return len(text)

    def flush(self):
        pass

    def fileno(self):
        return self.fd


def test_a_verbose_run_whose_output_nobody_reads_stops_and_says_so_on_stderr(
        tmp_path, capsys, monkeypatch):
    from tronlab.arena.cli import main

    db = tmp_path / "p.sqlite"
    out = _ClosedAfter(2)                                   # the plan line, one game
    monkeypatch.setattr("sys.stdout", out)
    try:
        code = main(["run", "--bots", "random", "hugger", "--maps", "arena,random:1:9x9",
                     "--time", "0.05", "--db", str(db), "--no-progress", "--verbose"])
    finally:
        os.close(out.fd)
    assert code == 141                  # as a command killed by SIGPIPE
    with Store(db) as store:
        assert len(store.done_keys()) == 2
        assert store.conn.execute("SELECT COUNT(*) FROM claims").fetchone() == (0,)
    err = capsys.readouterr().err
    assert err == ("stopped: nobody reads the output: 2 games finished in this run are "
                   f"stored in {db}; run the same command again to play the other 2\n")



class _CtrlCOnImport:
    """A module finder that raises KeyboardInterrupt when ``name`` is imported, as a
    Ctrl-C while Python loads it would."""

    def __init__(self, name):
        self.name = name

    def find_spec(self, name, path=None, target=None):
        if name == self.name:
            raise KeyboardInterrupt
        return None


def test_ctrl_c_while_the_arena_modules_load_exits_130_without_a_traceback(monkeypatch):
    import sys

    from tronlab.cli import main

    monkeypatch.delitem(sys.modules, "tronlab.arena.cli", raising=False)
    monkeypatch.setattr(sys, "meta_path", [_CtrlCOnImport("tronlab.arena.cli"),
                                           *sys.meta_path])
    assert main(["arena", "run", "--bots", "random", "hugger"]) == 130
