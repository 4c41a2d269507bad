from audio_console.cli import main

raise SystemExit(main())
