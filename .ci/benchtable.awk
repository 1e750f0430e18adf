# Turns `go test -bench` output into a table: one row per benchmark with its
# DynamoDB calls, read and write capacity units and time per request, then
# any other metric (a function's binary size and init time, latencies).
function metric(name,   i) {
	for (i = 3; i < NF; i++) if ($(i + 1) == name) return $i
	return "-"
}
/^pkg: / { pkg = $2; sub(/^github.com\/multisell\/multisell\//, "", pkg); next }
/^Benchmark/ {
	name = $1
	sub(/^Benchmark/, "", name); sub(/-[0-9]+$/, "", name); gsub(/_/, " ", name)
	if (!header++) {
		printf "%-14s %-58s %10s %10s %10s %12s\n", "package", "benchmark", "ddb calls", "RCU", "WCU", "ms/request"
		printf "%-14s %-58s %10s %10s %10s %12s\n", "-------", "---------", "---------", "---", "---", "----------"
	}
	ms = metric("ns/op"); if (ms != "-") ms = sprintf("%.2f", ms / 1e6)
	printf "%-14s %-58s %10s %10s %10s %12s", pkg, name, metric("ddb-calls/op"), metric("ddb-rcu/op"), metric("ddb-wcu/op"), ms
	# Any other metric (messages, latencies) follows as name=value.
	for (i = 3; i < NF; i++) if ($(i + 1) !~ /^(ns\/op|ddb-calls\/op|ddb-rcu\/op|ddb-wcu\/op)$/ && $i ~ /^[0-9.]+$/) printf "  %s=%s", $(i + 1), $i
	printf "\n"
	next
}
/^(FAIL|panic|---)/ { print; failed = 1 }
END { if (failed) exit 1 }
