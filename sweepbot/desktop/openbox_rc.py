"""The private openbox configuration: the stock look, no key bindings, normal windows at a fixed corner.

Placing every main window at the same spot makes screenshots reproducible; dropping openbox's own key
bindings keeps every key for the clients, and dropping its mouse bindings keeps it from grabbing the buttons
(its replayed clicks were lost by the games). Focus moves only by request (``xdotool windowactivate``).
"""

from __future__ import annotations

#: Where openbox puts the top-left corner of each normal window's frame (title bar included).
WINDOW_ORIGIN = (16, 16)

_RC_XML = """<?xml version="1.0" encoding="UTF-8"?>
<openbox_config xmlns="http://openbox.org/3.4/rc">
  <resistance><strength>0</strength><screen_edge_strength>0</screen_edge_strength></resistance>
  <focus><focusNew>yes</focusNew><followMouse>no</followMouse></focus>
  <placement><policy>Smart</policy><center>no</center></placement>
  <theme><name>Clearlooks</name><titleLayout>NLIMC</titleLayout><keepBorder>yes</keepBorder>
    <animateIconify>no</animateIconify></theme>
  <desktops><number>1</number><popupTime>0</popupTime></desktops>
  <keyboard></keyboard>
  <mouse></mouse>
  <applications>
    <application type="normal">
      <position force="yes"><x>{x}</x><y>{y}</y></position>
    </application>
  </applications>
</openbox_config>
"""


def rc_xml(origin: tuple[int, int] = WINDOW_ORIGIN) -> str:
    """The text of the rc.xml given to ``openbox --config-file``."""
    return _RC_XML.format(x=origin[0], y=origin[1])
