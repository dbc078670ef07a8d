package engine_test

import (
	"bufio"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// engineProcess is an engine in its own process, measured from /proc.
type engineProcess struct {
	cmd *exec.Cmd
	url string
}

// startEngineProcess runs this test binary as a bare engine on dir (see childEnv), with
// env added to its environment.
func startEngineProcess(b *testing.B, dir string, env ...string) *engineProcess {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), childEnv+"="+dir), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "URL ") {
		_ = cmd.Process.Kill()
		b.Fatalf("engine process: %q %v", line, err)
	}
	return &engineProcess{cmd: cmd, url: strings.TrimSpace(strings.TrimPrefix(line, "URL "))}
}

// stop asks the engine to close (SIGTERM: it persists its indices) and waits for it.
func (e *engineProcess) stop(b *testing.B) {
	if err := e.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		b.Fatal(err)
	}
	if err := e.cmd.Wait(); err != nil {
		b.Fatalf("engine process: %v", err)
	}
}

// cpuSeconds is the engine's user+system CPU time (/proc/PID/stat fields 14 and 15): on a
// shared machine it measures its work independently of what other processes take.
func (e *engineProcess) cpuSeconds() float64 {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(e.cmd.Process.Pid) + "/stat")
	if err != nil {
		return 0
	}
	// The command name (field 2) may hold spaces; the fields after it are numbers.
	f := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+2:]))
	utime, _ := strconv.ParseFloat(f[11], 64)
	stime, _ := strconv.ParseFloat(f[12], 64)
	return (utime + stime) / 100 // USER_HZ is 100 on Linux
}

// settle waits until the engine uses less than 5% of a core over a second (its
// merges are done), at most five minutes, and returns how long that took.
func (e *engineProcess) settle() time.Duration {
	start := time.Now()
	for time.Since(start) < 5*time.Minute {
		before := e.cpuSeconds()
		time.Sleep(time.Second)
		if e.cpuSeconds()-before < 0.05 {
			break
		}
	}
	return time.Since(start)
}

// peakRSSMB is the engine's peak resident set size (VmHWM).
func (e *engineProcess) peakRSSMB() float64 {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(e.cmd.Process.Pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			kb, _ := strconv.ParseFloat(strings.Fields(line)[1], 64)
			return kb / 1024
		}
	}
	return 0
}

// dirBytes is the size of the files under dir.
func dirBytes(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}
