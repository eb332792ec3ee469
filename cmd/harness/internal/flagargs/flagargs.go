// Package flagargs parses a command's flags wherever they stand among its
// arguments, which the standard flag package does not.
package flagargs

import "flag"

// Parse parses flags wherever they stand among the arguments,
// as the manual writes them (harness show RUN TASK --model M): the flag
// package stops at the first argument that is not a flag, so each such
// argument is set aside and parsing goes on after it; "--" ends the flags.
// The arguments set aside become fs.Args().
func Parse(fs *flag.FlagSet, args []string) error {
	var pos []string
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			return err
		}
		consumed := len(rest) - fs.NArg()
		if fs.NArg() == 0 || consumed > 0 && rest[consumed-1] == "--" {
			pos = append(pos, fs.Args()...)
			break
		}
		pos = append(pos, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	return fs.Parse(append([]string{"--"}, pos...))
}
