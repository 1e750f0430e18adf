package emulators

import "syscall"

// sysProcAttr puts the child in its own process group and has the kernel kill it when the
// thread that started it goes away (so a crashed test binary leaves no emulator behind).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
