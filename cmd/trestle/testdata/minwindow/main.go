// Command minwindow is the baseline of BenchmarkFirstUIAnswer: a minimal
// Fyne window that listens on loopback, prints its port, and answers each
// line it reads with the window's title, read on the main goroutine
// (through fyne.Do), as Trestle's window answers a UI tool.
package main

import (
	"bufio"
	"fmt"
	"net"
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/widget"
)

func main() {
	a := app.New()
	w := a.NewWindow("minimal")
	w.SetContent(widget.NewLabel("minimal"))
	w.Resize(fyne.NewSize(1024, 700))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr().(*net.TCPAddr).Port)
	go serve(ln, w)
	w.ShowAndRun()
}

// serve answers every line of every connection from the main goroutine.
func serve(ln net.Listener, w fyne.Window) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			r := bufio.NewReader(c)
			for {
				if _, err := r.ReadString('\n'); err != nil {
					return
				}
				title := make(chan string, 1)
				fyne.Do(func() { title <- w.Title() })
				fmt.Fprintln(c, <-title)
			}
		}()
	}
}
