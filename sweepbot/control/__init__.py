"""Mouse and keyboard: the input device (XTEST on X11, pyautogui elsewhere) and the guard that keeps
clicks on the board just read."""
