# Sourced by the push benchmarks after processes.sh: an APNs key and the fake APNs
# (Tests/Fakes/fake_apns.py: HTTP/2 over TLS, checking every provider token, header and payload).

start_fake_apns() {  # sets APNS_PORT and APNS_CERT; the key is $WORK/AuthKey.p8, its requests in $WORK/apns
  openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$WORK/AuthKey.p8" 2>/dev/null
  openssl pkey -in "$WORK/AuthKey.p8" -pubout -out "$WORK/public.pem"
  mkdir -p "$WORK/apns"
  python3 -u Tests/Fakes/fake_apns.py --dir "$WORK/apns" --public-key "$WORK/public.pem" --key-id BENCHKEY01 \
    --team-id BENCHTEAM1 --topic com.example.reader >"$WORK/apns.out" 2>"$WORK/apns.log" &
  PIDS+=($!)
  for _ in $(seq 1 300); do grep -q READY "$WORK/apns.out" 2>/dev/null && break; sleep 0.1; done
  read -r _ APNS_PORT APNS_CERT <"$WORK/apns.out"
}
