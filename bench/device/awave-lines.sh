# The lines of awave's output that the device scripts count (grep -E patterns), in one place;
# tests/test_device_scripts.py runs awave and finds each, so they stay the lines it prints.
AWAVE_LINE_BITWISE='check: bitwise identical to the reference'
AWAVE_LINE_NOT_BITWISE='check: NOT BITWISE'
AWAVE_LINE_VERDICT='^(PASS|FAIL)'
AWAVE_LINE_WRITTEN='written: [0-9.]+ GB .* at [0-9.]+ GB/s of wall'
