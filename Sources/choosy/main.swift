import ChoosyKit
writeStandardOutput("choosy\n")
