"""pagebench-report: the modules behind scripts/pagebench-report (docs/report.md)."""
