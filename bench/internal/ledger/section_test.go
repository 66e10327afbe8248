package ledger

import (
	"strings"
	"testing"
)

func TestMergeRejectsBrokenMarkers(t *testing.T) {
	b, e := beginMarker(cpuKey("CPU A")), endMarker(cpuKey("CPU A"))
	for name, text := range map[string]string{
		"no markers":   "# ledger\n\nhand-written\n",
		"no end":       b + "\nx\n",
		"end of other": b + "\nx\n" + endMarker(cpuKey("CPU B")) + "\n",
		"nested":       b + "\n" + beginMarker(preambleKey) + "\n" + endMarker(preambleKey) + "\n" + e + "\n",
		"twice":        b + "\n" + e + "\n" + b + "\n" + e + "\n",
		"malformed":    "<!-- ledger:begin cpu=CPU A -->\n",
		"end first":    e + "\n",
	} {
		if _, err := Merge(text, &Set{}, Options{}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestMergeKeepsOtherSections(t *testing.T) {
	other := beginMarker(cpuKey("CPU B")) + "\nB's numbers\n" + endMarker(cpuKey("CPU B")) + "\n"
	old := Preamble(Options{}) + "\nby hand\n\n" + other + "\nmore by hand\n"
	got, err := Merge(old, &Set{Runs: []*Run{fixture()}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sec := Sections(&Set{Runs: []*Run{fixture()}}, Options{})[0].Text
	if want := Preamble(Options{}) + "\nby hand\n\n" + other + "\n" + sec + "\nmore by hand\n"; got != want {
		t.Errorf("merged:\n%s\nwant:\n%s", got, want)
	}
	if !strings.Contains(sec, "<!-- ledger:begin cpu=") {
		t.Errorf("section without its marker:\n%s", sec)
	}
}
