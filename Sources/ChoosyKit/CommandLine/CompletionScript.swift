/// The scripts `choosy completions bash|zsh|fish` prints (and `make install` installs). They
/// are thin: each asks choosy itself for the candidates through `choosy __complete WORD…`,
/// which prints one candidate per line, optionally followed by a tab and a description.
/// They live here as literals so that the binary works wherever it is copied.
package enum CompletionScript {
    package static func text(for shell: String) -> String? {
        scripts.first { $0.shell == shell }?.text
    }

    /// The shells there is a script for.
    package static let shells = scripts.map(\.shell)

    private static let scripts: [(shell: String, text: String)] = [("bash", bash), ("zsh", zsh), ("fish", fish)]

    static let bash = #"""
        # bash completion for choosy.
        # Installed as share/bash-completion/completions/choosy, or: source <(choosy completions bash)
        # choosy itself finds the candidates: `choosy __complete WORD…` prints one per line, a tab
        # and a description may follow.

        # REPLY: WORD without its quotes and backslashes (no eval: the line is untrusted).
        _choosy_dequote() {
            local word=$1 quote= char i
            REPLY=
            for ((i = 0; i < ${#word}; i++)); do
                char=${word:i:1}
                if [[ -n $quote && $char == "$quote" ]]; then
                    quote=
                elif [[ $quote != "'" && $char == '\' ]]; then
                    ((i++))
                    REPLY+=${word:i:1}
                elif [[ -z $quote && ( $char == "'" || $char == '"' ) ]]; then
                    quote=$char
                else
                    REPLY+=$char
                fi
            done
        }

        _choosy() {
            local choosy=${COMP_WORDS[0]} line=${COMP_LINE-} rest word i
            local -a words=() arguments=()
            [[ $choosy == "~/"* ]] && choosy=$HOME/${choosy:2}
            # bash splits words at COMP_WORDBREAKS (key=value becomes key = value): glue back the
            # pieces with no blank between them on the line, so choosy sees the command's words.
            [[ -n $line ]] || line="${COMP_WORDS[*]}"
            for ((i = 0; i <= COMP_CWORD; i++)); do
                word=${COMP_WORDS[i]}
                rest=${line#"${line%%[![:space:]]*}"}
                if ((i > 0)) && [[ $rest == "$line" ]]; then
                    words[-1]+=$word
                else
                    words+=("$word")
                fi
                line=${rest#"$word"}
            done
            for word in "${words[@]:1}"; do
                _choosy_dequote "$word"
                arguments+=("$REPLY")
            done
            # readline replaces only the text after the last word break (nothing right after a
            # lone `=` or `@`), so candidates lose what comes before it (`--app=tweetbot` →
            # `tweetbot`, `firefox@Work` → `Work`).
            local typed=${COMP_WORDS[COMP_CWORD]} current=${arguments[-1]}
            [[ $typed == *[!=:@]* ]] || typed=
            _choosy_dequote "$typed"
            local prefix=${current:0:${#current}-${#REPLY}} candidate
            COMPREPLY=()
            while IFS= read -r candidate; do
                candidate=${candidate%%$'\t'*}
                [[ $candidate == *= ]] && compopt -o nospace 2>/dev/null
                printf -v candidate %q "${candidate#"$prefix"}"
                COMPREPLY+=("$candidate")
            done < <(command "$choosy" __complete "${arguments[@]}" 2>/dev/null)
        }

        complete -F _choosy choosy

        """#

    static let zsh = #"""
        #compdef choosy
        # zsh completion for choosy.
        # Installed as share/zsh/site-functions/_choosy, or: source <(choosy completions zsh)
        # choosy itself finds the candidates: `choosy __complete WORD…` prints one per line, a tab
        # and a description may follow.

        _choosy() {
            local line word description
            local -a spaced unspaced
            for line in "${(@f)$(command ${(Q)words[1]} __complete "${(@Q)words[2,CURRENT-1]}" "${(Q)PREFIX}" 2>/dev/null)}"; do
                [[ -n $line ]] || continue
                word=${line%%$'\t'*}
                description=
                [[ $line == *$'\t'* ]] && description=${line#*$'\t'}
                # _describe reads value:description; key= is followed by its value, not a space.
                if [[ $word == *= ]]; then
                    unspaced+=("${word//:/\\:}${description:+:$description}")
                else
                    spaced+=("${word//:/\\:}${description:+:$description}")
                fi
            done
            local ret=1
            (( $#spaced )) && _describe -t choosy-words 'choosy' spaced && ret=0
            (( $#unspaced )) && _describe -t parameters 'parameter' unspaced -S '' && ret=0
            return ret
        }

        if [[ $funcstack[1] == _choosy ]]; then
            _choosy "$@"
        else
            compdef _choosy choosy
        fi

        """#

    static let fish = #"""
        # fish completion for choosy.
        # Installed as share/fish/vendor_completions.d/choosy.fish, or: choosy completions fish | source
        # choosy itself finds the candidates: `choosy __complete WORD…` prints one per line, a tab
        # and a description may follow.

        function __choosy_complete
            set -l words (commandline -opc)
            set -l current (commandline -ct)
            command $words[1] __complete $words[2..-1] "$current" 2>/dev/null
        end

        complete -c choosy -f -a '(__choosy_complete)'

        """#
}
