package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"text/tabwriter"

	"golang.org/x/sys/cpu"

	"github.com/quiverlabs/quiver"
)

// feature is one CPU capability the backends depend on.
type feature struct {
	name string
	has  bool
}

// features lists the CPU capabilities that decide which backend can run,
// for the architecture this binary was built for.
func features() []feature {
	switch runtime.GOARCH {
	case "amd64":
		return []feature{
			{"AVX", cpu.X86.HasAVX},
			{"AVX2", cpu.X86.HasAVX2},
			{"BMI2", cpu.X86.HasBMI2},
			{"POPCNT", cpu.X86.HasPOPCNT},
			{"FMA", cpu.X86.HasFMA}, // not required: AVX2 kernels use it where present
			{"AVX-512 F", cpu.X86.HasAVX512F},
			{"AVX-512 BW", cpu.X86.HasAVX512BW},
			{"AVX-512 DQ", cpu.X86.HasAVX512DQ},
			{"AVX-512 VL", cpu.X86.HasAVX512VL},
			{"AVX-512 VPOPCNTDQ", cpu.X86.HasAVX512VPOPCNTDQ},
		}
	case "arm64":
		return []feature{{"ASIMD", cpu.ARM64.HasASIMD}}
	}
	return nil
}

// cpuModel names this machine's CPU as Linux's /proc/cpuinfo does: its
// model name and, on x86, "family F model M" in id (the benchmark
// module's cpuinfo-id line), so that figures measured here can say which
// CPU they come from; ok is false where that file is missing.
func cpuModel() (name, id string, ok bool) {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "", "", false
	}
	return parseCPUInfo(string(b))
}

// parseCPUInfo reads the first processor's "model name", "cpu family"
// and "model" lines of a /proc/cpuinfo text.
func parseCPUInfo(text string) (name, id string, ok bool) {
	var family, model string
	for _, line := range strings.Split(text, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			if strings.TrimSpace(line) == "" && name != "" {
				break // the end of the first processor's block
			}
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch {
		case k == "model name" && name == "":
			name = v
		case k == "cpu family" && family == "":
			family = v
		case k == "model" && model == "":
			model = v
		}
	}
	if name == "" {
		return "", "", false
	}
	if family != "" && model != "" {
		id = fmt.Sprintf("family %s model %s", family, model)
	}
	return name, id, true
}

// operations are the public reductions, each with the backend it runs on.
// Every operation dispatches to the active backend today; listing them one
// by one keeps this output right the day one of them does not.
var operations = []string{
	"Sum", "SumInt", "SumUint", "Min", "Max", "MinMax", "Summarize",
	"SumChecked", "SumCheckedUint", "CountValid",
}

// dispatch returns the backend an operation runs on when no selection is
// given (selections run their own loops, and gathers where the backend has
// them).
func dispatch(op string) string {
	return quiver.ActiveBackend().Name
}

// info writes the machine's CPU features, the backends and the dispatch.
func info(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "quiver on %s/%s, %s\n\n", runtime.GOOS, runtime.GOARCH, runtime.Version())

	if name, id, ok := cpuModel(); ok {
		if id != "" {
			name += " (" + id + ")"
		}
		fmt.Fprintf(tw, "CPU: %s\n\n", name)
	}
	fmt.Fprintln(tw, "CPU features:")
	fs := features()
	if len(fs) == 0 {
		fmt.Fprintf(tw, "  (none that quiver uses on %s)\n", runtime.GOARCH)
	}
	for _, f := range fs {
		fmt.Fprintf(tw, "  %s\t%s\n", f.name, yesNo(f.has))
	}

	active := quiver.ActiveBackend().Name
	fmt.Fprintln(tw, "\nBackends (most preferred first):")
	fmt.Fprintln(tw, "  name\tavailable\tfloat32 sum (A, W)\tfloat64 sum (A, W)")
	for _, b := range quiver.Backends() {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s", b.Name, yesNo(b.Available), policy(b.Float32), policy(b.Float64))
		if b.Name == active {
			fmt.Fprint(tw, "\tactive")
		}
		fmt.Fprintln(tw)
	}

	fmt.Fprintln(tw, "\nDispatch (dense and masked input; selections run selection loops and, on amd64, gathers):")
	for _, op := range operations {
		fmt.Fprintf(tw, "  %s\t%s\n", op, dispatch(op))
	}
	a := quiver.ActiveBackend()
	fmt.Fprintf(tw, "\nFloat sums on %s: float32 %s, float64 %s (%s).\n",
		a.Name, policy(a.Float32), policy(a.Float64), policyMeaning(a))
	return tw.Flush()
}

// policy formats an ADR-013 layout.
func policy(p quiver.FloatPolicy) string {
	return fmt.Sprintf("A=%d, W=%d", p.Accumulators, p.Lanes)
}

// policyMeaning says in words what the active layout implies.
func policyMeaning(b quiver.BackendInfo) string {
	strict := func(p quiver.FloatPolicy) bool { return p.Accumulators == 1 && p.Lanes == 1 }
	switch {
	case strict(b.Float32) && strict(b.Float64):
		return "the strict left fold, bit-identical to -tags purego"
	case !strict(b.Float32) && !strict(b.Float64):
		return "blocked accumulation per ADR-013; build with -tags purego for the strict fold"
	}
	var parts []string
	for _, t := range []struct {
		name string
		p    quiver.FloatPolicy
	}{{"float32", b.Float32}, {"float64", b.Float64}} {
		if strict(t.p) {
			parts = append(parts, t.name+" strict")
		} else {
			parts = append(parts, t.name+" blocked")
		}
	}
	return strings.Join(parts, ", ")
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
