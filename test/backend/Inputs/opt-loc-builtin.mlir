module {
  module @a {
  } loc("/dev/zero":3:1)
  module @a {
  } loc("/dev/zero":5:1)
}
