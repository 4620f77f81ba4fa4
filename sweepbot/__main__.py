import json
import sys


def _interrupted_while_loading() -> int:
    """Ctrl-C before the command line was loaded: the same answer as once it runs."""
    command = next((a for a in sys.argv[1:] if not a.startswith("-")), "")
    print(f"sweepbot {command}: interrupted" if command else "sweepbot: interrupted", file=sys.stderr)
    if "--json" in sys.argv[1:]:
        print(json.dumps({"error": "interrupted"}), flush=True)
    return 2


try:
    from sweepbot.cli import main
except KeyboardInterrupt:
    sys.exit(_interrupted_while_loading())
sys.exit(main())
