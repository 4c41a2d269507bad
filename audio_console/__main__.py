from audio_console.app.cli import main

raise SystemExit(main())
