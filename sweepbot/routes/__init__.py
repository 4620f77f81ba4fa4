"""Routes to the screen: how frames are seen and input is sent on each kind of desktop.

A route pairs a frame source with an input device that lands where those frames show: an X11 screen (mss and
XTEST), the X11 windows of a Wayland session (each window read from its own pixels, XTEST through Xwayland),
a desktop's remote-desktop session (frames over PipeWire, input through the compositor: GNOME's Mutter
interfaces or the desktop portal), or pyautogui on other platforms. ``choose.open_route`` picks the one
that shows a board on this desktop.
"""
