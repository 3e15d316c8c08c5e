// Command relay is the floor under `trestle --mcp-attach` for
// BenchmarkRelayEcho: `relay ADDR` connects to ADDR and copies stdin to
// the connection and the connection to stdout, as the bridge does once
// attached, and nothing else; `relay -echo` listens on 127.0.0.1, prints
// its address and writes every line it reads on a connection back to it.
package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: relay ADDR | relay -echo")
		os.Exit(2)
	}
	var err error
	if os.Args[1] == "-echo" {
		err = echo()
	} else {
		err = relay(os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "relay:", err)
		os.Exit(1)
	}
}

func relay(addr string) error {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return err
	}
	conn := c.(*net.TCPConn)
	go func() {
		io.Copy(conn, os.Stdin)
		conn.CloseWrite()
	}()
	_, err = io.Copy(os.Stdout, conn)
	return err
}

func echo() error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Println(ln.Addr())
	for {
		c, err := ln.Accept()
		if err != nil {
			return err
		}
		go func() {
			defer c.Close()
			r := bufio.NewReader(c)
			for {
				line, err := r.ReadBytes('\n')
				if err != nil {
					return
				}
				c.Write(line)
			}
		}()
	}
}
