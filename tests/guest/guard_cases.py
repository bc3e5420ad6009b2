"""Cases run by test_guard.py in a pytest of their own (the name keeps them
out of normal collection): the harness must fail the first three although
their bodies pass or die, and give the others a fresh, working guest."""
import pytest


def test_unexpected_warning(guest):
    guest.check(f"insmod {guest.initramfs.splatmod} && rmmod kiobench_splat")


def test_gets_fresh_guest_after_splat(guest):
    assert "kiobench_splat" not in guest.check("dmesg")


@pytest.mark.expect_splat("no such splat")
def test_expected_splat_missing(guest):
    pass


def test_panic(guest):
    guest.run("echo c >/proc/sysrq-trigger")


def test_gets_fresh_guest_after_panic(guest):
    assert "sysrq" not in guest.check("dmesg")
