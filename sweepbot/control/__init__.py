"""Mouse and keyboard through pyautogui: the only place that touches input devices."""
