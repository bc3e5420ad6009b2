# SPDX-License-Identifier: GPL-2.0
# Sourced by fetch-source and sparse: `apt_update LOG` runs apt-get update
# with the caller's "${opts[@]}" (an apt configuration of its own), and
# succeeds when apt reported no warning or error.
#
# sid's and experimental's Release files are valid for a week
# (Valid-Until).  A mirror or snapshot that lags this machine's clock by
# more serves one apt calls expired, and refuses: a brand-new Debian 12
# (debootstrap) behind such a mirror had no sid source at all, so no debug
# kernel, and every debug lane failed.  Then the update runs
# again taking the file as it is, with a warning: its signature is still
# checked, and the source is the newest that mirror has.  opts keeps the
# option for the later apt calls.
apt_update() {
	local log=$1
	apt-get "${opts[@]}" update >"$log" 2>&1 && ! grep -q '^[WE]:' "$log" && return 0
	grep -q 'Release file for .* is expired' "$log" || return 1
	echo "${0##*/}: WARNING: $(grep -m1 -o 'Release file for .* is expired[^)]*)' "$log");" \
		"taken as it is (its signature checked)" >&2
	opts+=(-o Acquire::Check-Valid-Until=false)
	apt-get "${opts[@]}" update >"$log" 2>&1 && ! grep -q '^[WE]:' "$log"
}
