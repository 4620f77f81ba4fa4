"""Frames of a PipeWire screen-cast stream, read by GStreamer's ``pipewiresrc`` in a child process.

``gst-launch-1.0`` (Debian's gstreamer1.0-tools, with gstreamer1.0-pipewire: PipeWire's own GStreamer
element, which GNOME and KDE use for screen casts) turns the stream into raw BGRx frames on a pipe; a
thread keeps the newest one. No Python binding is built or imported: the child is the whole of it. The
size of the frames is what the stream negotiated, read from the caps the pipeline prints (``-v``), so a
frame pixel is a stream pixel, the unit the compositor's pointer input takes. A stream sends a frame when
the screen changes: the newest frame is the screen now.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import threading

import numpy as np

from sweepbot.rect import Rect
from sweepbot.vision.capture import CaptureError, Monitor

#: seconds to wait for the first frame of a stream (a compositor sends one when the cast starts)
FIRST_FRAME_TIMEOUT = 10.0
#: the caps line of the pipeline's last element, which carries the size of the frames it writes
SINK_CAPS = re.compile(r"GstFdSink:.*caps = video/x-raw, format=\(string\)BGRx, width=\(int\)(\d+), "
                       r"height=\(int\)(\d+)")
#: where to find out what is missing when the pipeline cannot run
PACKAGES = "gstreamer1.0-tools and gstreamer1.0-pipewire (Debian, Ubuntu; gstreamer1-plugin-pipewire on Fedora)"


class PipeWireFrames:
    """The newest frame of PipeWire stream ``node`` (on the PipeWire connection ``fd`` a portal handed over,
    or the session's own); a :class:`~sweepbot.vision.capture.FrameSource` whose one monitor is the stream,
    placed at ``position``."""

    def __init__(self, node: int, fd: int | None = None, position: tuple[int, int] = (0, 0),
                 timeout: float = FIRST_FRAME_TIMEOUT, what: str = "the stream") -> None:
        if shutil.which("gst-launch-1.0") is None:
            raise CaptureError(f"gst-launch-1.0 is not installed: frames of {what} arrive over PipeWire through "
                               f"GStreamer; install {PACKAGES}")
        self.what = what
        self._position = position
        self._lock = threading.Condition()
        self._frame: np.ndarray | None = None
        self._size: tuple[int, int] | None = None
        self._said: list[str] = []
        self._ended = False
        read, write = os.pipe()
        source = ["pipewiresrc", f"path={node}", "always-copy=true"] + ([f"fd={fd}"] if fd is not None else [])
        argv = ["gst-launch-1.0", "-v", *source, "!", "videoconvert", "!", "video/x-raw,format=BGRx", "!",
                "fdsink", f"fd={write}", "sync=false"]
        try:
            self._proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                          stderr=subprocess.STDOUT, pass_fds=(write, *([fd] if fd is not None else [])),
                                          start_new_session=True)
        finally:
            os.close(write)
        self._pipe = os.fdopen(read, "rb", buffering=0)
        threading.Thread(target=self._read_caps, daemon=True).start()
        threading.Thread(target=self._read_frames, daemon=True).start()
        with self._lock:
            if not self._lock.wait_for(lambda: self._frame is not None or self._ended, timeout):
                self.close()
                raise CaptureError(f"no frame of {what} came over PipeWire in {timeout:.0f} s (is wireplumber "
                                   "running in this session?)")
        if self._frame is None:
            said = " | ".join(self._said[-3:])
            self.close()
            raise CaptureError(f"the PipeWire pipeline for {what} ended: {said or 'no message'} (needs {PACKAGES})")

    # -- the threads ----------------------------------------------------------------------------------
    def _read_caps(self) -> None:
        assert self._proc.stdout is not None
        for raw in self._proc.stdout:
            line = raw.decode(errors="replace").strip()
            found = SINK_CAPS.search(line)
            with self._lock:
                size = (int(found.group(1)), int(found.group(2))) if found else None
                if size and self._frame is not None and size != self._size:
                    # the frames on the pipe can no longer be told apart: this stream is over
                    self._said.append(f"the stream changed size from {self._size} to {size}")
                    self._ended = True
                    self._lock.notify_all()
                    return
                if size:
                    self._size = size
                    self._lock.notify_all()
                elif line and not line.startswith("/Gst"):
                    self._said = [*self._said[-9:], line]
        with self._lock:
            self._ended = True
            self._lock.notify_all()

    def _read_frames(self) -> None:
        while True:
            with self._lock:
                if not self._lock.wait_for(lambda: self._size is not None or self._ended, 1.0):
                    continue
                if self._size is None:
                    return
                width, height = self._size
            data = self._read_exactly(width * height * 4)
            if data is None:
                with self._lock:
                    self._ended = True
                    self._lock.notify_all()
                return
            frame = np.frombuffer(data, np.uint8).reshape(height, width, 4)[:, :, :3]
            with self._lock:
                self._frame = frame
                self._lock.notify_all()

    def _read_exactly(self, count: int) -> bytes | None:
        """``count`` bytes of the pipe, or None at the stream's end: the pipeline gone, or the pipe closed by
        :meth:`close` between two reads."""
        buffer = bytearray(count)
        view = memoryview(buffer)
        got = 0
        while got < count:
            try:
                n = self._pipe.readinto(view[got:])
            except (ValueError, OSError):  # closed under the reader
                return None
            if not n:
                return None
            got += n
        return bytes(buffer)

    # -- a frame source -------------------------------------------------------------------------------
    def _newest(self) -> np.ndarray:
        with self._lock:
            frame, ended = self._frame, self._ended
        if ended:
            said = " | ".join(self._said[-3:])
            raise CaptureError(f"the PipeWire stream of {self.what} ended{': ' + said if said else ''}")
        assert frame is not None
        return frame

    def monitors(self) -> list[Monitor]:
        height, width = self._newest().shape[:2]
        whole = Rect(self._position[0], self._position[1], width, height)
        return [Monitor(0, whole), Monitor(1, whole)]

    def grab(self, region: Rect | None = None) -> np.ndarray:
        frame = self._newest()
        if region is None:
            return np.ascontiguousarray(frame)
        x, y = region.x - self._position[0], region.y - self._position[1]
        height, width = frame.shape[:2]
        if region.w <= 0 or region.h <= 0 or x < 0 or y < 0 or x + region.w > width or y + region.h > height:
            raise CaptureError(f"region {region} is not inside {self.what} ({width}x{height} at {self._position})")
        return np.ascontiguousarray(frame[y : y + region.h, x : x + region.w])

    def grab_monitor(self, index: int) -> np.ndarray:
        if index not in (0, 1):
            raise CaptureError(f"no monitor {index} in {self.what}")
        return self.grab()

    def close(self) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._proc.pid, signal.SIGTERM)
        try:
            self._proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._proc.pid, signal.SIGKILL)
            self._proc.wait(timeout=3)
        with contextlib.suppress(OSError):
            self._pipe.close()
