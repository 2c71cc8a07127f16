package cli

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"text/tabwriter"

	"github.com/shoebox-app/shoebox/clients"
	"github.com/shoebox-app/shoebox/receipt"
)

func init() {
	register("clients", "list, create, rename or archive clients (each is its own library)", runClients)
}

// useClient points a command's --library at a client's library folder.
func useClient(name string, lib *string) error {
	if *lib != "" {
		return fmt.Errorf("give --client or --library, not both")
	}
	dir, err := clients.DefaultDir()
	if err != nil {
		return err
	}
	reg, err := clients.Open(dir)
	if err != nil {
		return err
	}
	l, c, err := reg.OpenLibrary(name)
	if err != nil {
		return err
	}
	l.Close()
	*lib = reg.Path(c)
	return nil
}

func openRegistry(env Env) (*clients.Registry, bool) {
	dir, err := clients.DefaultDir()
	if err == nil {
		var reg *clients.Registry
		if reg, err = clients.Open(dir); err == nil {
			return reg, true
		}
	}
	fmt.Fprintln(env.Stderr, "shoebox:", err)
	return nil, false
}

const clientsUsage = `Usage:
  shoebox clients list [--all] [--json]      clients, most recently used first
  shoebox clients new NAME [--country AU]    a new client with its own library
  shoebox clients rename OLD NEW
  shoebox clients archive NAME               hide a client (its library stays)
  shoebox clients unarchive NAME
  shoebox clients move ID FROM TO            move a receipt to another client (its history goes with it)
Every library command takes --client NAME.`

func runClients(env Env, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(env.Stderr, clientsUsage)
		return 2
	}
	fs := newFlagSet(env, "clients "+args[0])
	all := fs.Bool("all", false, "list archived clients too")
	asJSON := fs.Bool("json", false, "print JSON")
	country := fs.String("country", "AU", "the new client's country: AU, NZ, UK, EU, US, MY or other")
	if err := parseArgs(fs, args[1:]); err != nil {
		return 2
	}
	reg, ok := openRegistry(env)
	if !ok {
		return 1
	}
	want := map[string]int{"list": 0, "new": 1, "rename": 2, "archive": 1, "unarchive": 1, "move": 3}
	n, known := want[args[0]]
	if !known || fs.NArg() != n {
		fmt.Fprintln(env.Stderr, clientsUsage)
		return 2
	}
	var err error
	switch args[0] {
	case "list":
		list := reg.List(*all)
		if *asJSON {
			return printJSON(env, list)
		}
		if len(list) == 0 {
			fmt.Fprintln(env.Stdout, "no clients yet: shoebox clients new NAME")
			return 0
		}
		tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "CLIENT\tLAST USED\tFOLDER")
		for _, c := range list {
			name := c.Name
			if c.Archived {
				name += " (archived)"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\n", name, c.LastOpened.Local().Format("2006-01-02 15:04"), reg.Path(c))
		}
		tw.Flush()
		return 0
	case "new":
		var c receipt.Country
		if c, err = receipt.ParseCountry(*country); err == nil {
			var cl clients.Client
			if cl, err = reg.New(fs.Arg(0), c); err == nil {
				fmt.Fprintf(env.Stdout, "new client %s (%s) in %s\n", cl.Name, c, reg.Path(cl))
			}
		}
	case "rename":
		err = reg.Rename(fs.Arg(0), fs.Arg(1))
	case "archive":
		err = reg.Archive(fs.Arg(0))
	case "unarchive":
		err = reg.Unarchive(fs.Arg(0))
	case "move":
		err = moveReceipt(env, reg, fs.Arg(0), fs.Arg(1), fs.Arg(2))
	}
	if err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	}
	return 0
}

func moveReceipt(env Env, reg *clients.Registry, idText, fromName, toName string) error {
	id, err := strconv.ParseInt(idText, 10, 64)
	if err != nil {
		return fmt.Errorf("%q is not a receipt ID", idText)
	}
	from, fc, err := reg.OpenLibrary(fromName)
	if err != nil {
		return err
	}
	defer from.Close()
	to, tc, err := reg.OpenLibrary(toName)
	if err != nil {
		return err
	}
	defer to.Close()
	newID, err := clients.Move(context.Background(), from, to, fc.Name, tc.Name, id)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "receipt %d of %s is now receipt %d of %s\n", id, fc.Name, newID, tc.Name)
	return nil
}

func newFlagSet(env Env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	return fs
}
