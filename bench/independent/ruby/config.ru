require_relative 'app'
run PetStore
