# stairs.bash -- bash completion for stairsd, stairs, stairs-load and
# stairs-import, installed as PREFIX/share/bash-completion/completions/
# {stairsd,stairs,stairs-load,stairs-import}.  Options come from the program's own --help (so they
# never drift from it); scenario names from the built-in list the
# installation ships, PREFIX/share/stairs/scenarios, beside scenario files.

# _stairs_opts_in: the options a --help text on stdin names.
_stairs_opts_in()
{
	grep -oE '(^|[][ ,|(])--?[A-Za-z][A-Za-z0-9-]*' |
	    sed 's/^[][ ,|(]//' | sort -u
}

# _stairs_opts PROG [--headless]: the options PROG's --help names.
_stairs_opts()
{
	"$@" --help 2>/dev/null | _stairs_opts_in
}

# _stairs_scenarios PROG: the installed scenarios' names.
_stairs_scenarios()
{
	local prog dir f
	prog=$(type -P "$1" 2>/dev/null) || return
	prog=$(readlink -f "$prog" 2>/dev/null) || return
	dir=${prog%/*}/../share/stairs/scenarios
	for f in "$dir"/*.cfg; do
		[ -e "$f" ] || continue
		f=${f##*/}
		printf '%s\n' "${f%.cfg}"
	done
}

_stairs_complete()
{
	local cur prev prog words_s headless=
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	prog=${COMP_WORDS[0]}
	COMPREPLY=()
	case " ${COMP_WORDS[*]} " in
	*" --headless "*) headless=--headless ;;
	esac
	case $prog in
	*stairsd)
		case $prev in
		--scenario)
			COMPREPLY=($(compgen -W "$(_stairs_scenarios "$prog")" \
			    -- "$cur") $(compgen -f -X '!*.cfg' -- "$cur") \
			    $(compgen -d -- "$cur"))
			return ;;
		--policy)
			COMPREPLY=($(compgen -W "staircase o1 cfs eevdf rr" \
			    -- "$cur"))
			return ;;
		--compare|--ticks|--table|--cpus|--rr-interval)
			return ;;
		-c|--config|-S|--socket|--trace|--perfetto)
			COMPREPLY=($(compgen -f -- "$cur"))
			return ;;
		esac
		if [ -n "$headless" ]; then
			COMPREPLY=($(compgen -W "$(_stairs_opts "$prog" \
			    --headless)" -- "$cur"))
		else
			# Live: the options, not the headless usage line's.
			COMPREPLY=($(compgen -W "--headless $("$prog" --help \
			    2>/dev/null | grep -v -- --headless |
			    _stairs_opts_in)" -- "$cur"))
		fi
		;;
	*stairs-load)
		case $prev in
		--run|--sleep|--count) return ;;
		esac
		COMPREPLY=($(compgen -W "$(_stairs_opts "$prog")" -- "$cur"))
		;;
	*stairs-import)
		case $prev in
		--capture|--pid|--comm|--top|--from|--to|--cpus) return ;;
		-o|--output|--save)
			COMPREPLY=($(compgen -f -- "$cur"))
			return ;;
		esac
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "$(_stairs_opts "$prog")" \
			    -- "$cur"))
		else
			COMPREPLY=($(compgen -f -- "$cur"))
		fi
		;;
	*stairs)
		case $prev in
		-S) COMPREPLY=($(compgen -f -- "$cur")); return ;;
		--theme)
			COMPREPLY=($(compgen -W "dark light projector" \
			    -- "$cur"))
			return ;;
		esac
		COMPREPLY=($(compgen -W "$(_stairs_opts "$prog")" -- "$cur"))
		;;
	esac
}
complete -F _stairs_complete stairsd stairs stairs-load stairs-import
